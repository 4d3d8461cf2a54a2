"""Play bot-only games in memory and print who won and how fast the engine ran.

The last line of output is one JSON object (see `Summary.as_dict`), for scripts.
"""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine import bot_players, new_seed, record_json, record_of
from games.engine.bots import BOT_NAMES
from lab.simulation import PlayedGame, Summary, seatings, simulate


class Command(BaseCommand):
    help = "Play bot-only games without the database and report win rates and plays per second."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
        parser.add_argument("--seed", help="run seed; the same seed plays the same games")
        parser.add_argument("--target", type=int, default=10, help="target score (default 10)")
        parser.add_argument(
            "--bots",
            default="random,random,random",
            help=f"bots in seats 0,1,2, from: {', '.join(BOT_NAMES)}",
        )
        parser.add_argument(
            "--rotate",
            action="store_true",
            help="play each deal once under every distinct seating of the bots",
        )
        parser.add_argument("--export", metavar="DIR", help="write one coins-record/1 file a game")
        parser.add_argument("--json", action="store_true", help="print only the JSON summary")

    def handle(self, *args, games, seed, target, bots, rotate, export, json: bool, **options):
        names = tuple(name.strip() for name in bots.split(","))
        if len(names) != 3 or any(name not in BOT_NAMES for name in names):
            raise CommandError(f"--bots needs three of {', '.join(BOT_NAMES)}, comma-separated.")
        if games < 1:
            raise CommandError("--games must be at least 1.")
        if not 1 <= target <= 99:
            raise CommandError("--target must be between 1 and 99.")
        seed = seed or new_seed()
        export_dir = Path(export) if export else None
        if export_dir:
            export_dir.mkdir(parents=True, exist_ok=True)
        show_progress = not json and sys.stderr.isatty()

        def on_game(game: PlayedGame, summary: Summary) -> None:
            if export_dir:
                record = record_of(
                    game.state,
                    game_id=f"sim-{seed}-{game.number}",
                    players=bot_players(game.seating),
                )
                path = export_dir / f"game-{game.number:06d}.json"
                path.write_text(record_json(record), encoding="utf-8")
            if show_progress:
                _progress(summary.games, total)

        per_deal = len(seatings(names, rotate))
        total = -(-games // per_deal) * per_deal
        summary = simulate(
            games=games, seed=seed, target=target, bots=names, rotate=rotate, on_game=on_game
        )
        if show_progress:
            sys.stderr.write("\n")
        result = summary.as_dict()
        if not json:
            self._print_table(result)
        self.stdout.write(_json_line(result))

    def _print_table(self, result: dict) -> None:
        self.stdout.write(
            f"{result['games']} games, {result['plays']} cards played in "
            f"{result['seconds']:.2f} s: {result['plays_per_second']:,} plays/s "
            f"(seed {result['seed']})"
        )
        for name, tally in result["bots"].items():
            low, high = tally["ci95"]
            self.stdout.write(
                f"  {name:<10} won {tally['wins']:>6} of {tally['seat_games']:>6} seats: "
                f"{tally['win_rate']:.1%} (95% CI {low:.1%} - {high:.1%})"
            )


def _json_line(result: dict) -> str:
    return json.dumps(result, separators=(", ", ": "))


def _progress(done: int, total: int) -> None:
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    sys.stderr.flush()
