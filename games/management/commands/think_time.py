"""CPU per card of one bot thinking with its own budget, over real positions: whole games of
the bot against two others (seats rotated), each of its cards timed with the process clock.
The last line of output is one JSON object."""

import json
import time

from django.core.management.base import BaseCommand, CommandError

from games.engine import GameState
from games.engine.bots import BOT_NAMES, make_bot


def percentile(times: list[float], share: float) -> float:
    """The ``share`` quantile of sorted ``times`` (nearest rank), in milliseconds."""
    return 1000 * times[min(len(times) - 1, int(share * len(times)))]


class Command(BaseCommand):
    help = "Measure a bot's CPU per card (p50, p95, max) with its own budget, in real games."

    def add_arguments(self, parser):
        parser.add_argument("--bot", default="expert-v4", help=f"from {BOT_NAMES}")
        parser.add_argument("--against", default="expert-v1", help="the two other seats")
        parser.add_argument("--games", type=int, default=30)
        parser.add_argument("--target", type=int, default=10)
        parser.add_argument("--seed", default="think-time")

    def handle(self, *args, bot, against, games, target, seed, **options):
        if bot not in BOT_NAMES or against not in BOT_NAMES:
            raise CommandError(f"Unknown bot: choose from {BOT_NAMES}.")
        times = []
        for game in range(games):
            seating = [against] * 3
            seating[game % 3] = bot
            bots = [make_bot(name, f"{seed}/{game}/{seat}") for seat, name in enumerate(seating)]
            state = GameState(target, seed=f"{seed}/deal/{game}")
            while state.winner is None:
                seat = state.to_play
                view = state.view_for(seat)
                started = time.process_time()
                card = bots[seat].choose(view)
                if seating[seat] == bot:
                    times.append(time.process_time() - started)
                state.play(seat, card)
        times.sort()
        result = {
            "bot": bot,
            "against": against,
            "games": games,
            "cards": len(times),
            "p50_ms": round(percentile(times, 0.5), 1),
            "p95_ms": round(percentile(times, 0.95), 1),
            "max_ms": round(1000 * times[-1], 1),
        }
        self.stdout.write(
            f"{bot}: {len(times)} cards, CPU per card p50 {result['p50_ms']} ms, "
            f"p95 {result['p95_ms']} ms, max {result['max_ms']} ms"
        )
        self.stdout.write(json.dumps(result, sort_keys=True))
