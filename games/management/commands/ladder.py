"""The bots' strength ladder: a rotated round robin of the pool, rated with OpenSkill, and
win rates of one bot against two of another. The last line of output is one JSON object.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from games.engine import new_seed
from games.engine.bots import BOT_NAMES, LEVEL_OF_BOT
from lab.ladder import Ladder, match_jobs, play_jobs, run_ladder
from lab.simulation import wilson_interval

DEFAULT_POOL = "random,careful,heuristic,expert-v1,expert-v3,expert-v4"


class Command(BaseCommand):
    help = "Rate the bots against each other (round robin, rotated seats) and report win rates."

    def add_arguments(self, parser):
        parser.add_argument("--pool", default=DEFAULT_POOL, help=f"bots (from {BOT_NAMES})")
        parser.add_argument(
            "--deals", type=int, default=20, help="deals per lineup, each under 6 seatings"
        )
        parser.add_argument(
            "--match",
            action="append",
            default=[],
            metavar="A,B",
            help="also play A against two B (rotated); may be repeated",
        )
        parser.add_argument("--match-games", type=int, default=300, help="games per --match")
        parser.add_argument("--target", type=int, default=10)
        parser.add_argument("--seed", help="the same seed plays the same games")
        parser.add_argument("--processes", type=int, help="worker processes (default: cores)")
        parser.add_argument("--no-ladder", action="store_true", help="only the --match lines")

    def handle(self, *args, pool, deals, match, match_games, target, seed, processes, **opts):
        bots = [name.strip() for name in pool.split(",") if name.strip()]
        pairs = [tuple(name.strip() for name in pair.split(",")) for pair in match]
        unknown = {b for b in bots + [n for p in pairs for n in p] if b not in BOT_NAMES}
        if unknown:
            raise CommandError(f"Unknown bots {sorted(unknown)}: choose from {BOT_NAMES}.")
        if any(len(pair) != 2 for pair in pairs):
            raise CommandError("--match takes two bots: A,B plays A against two B.")
        if not opts["no_ladder"] and len(set(bots)) < 3:
            raise CommandError("--pool needs at least three different bots.")
        if deals < 1 or match_games < 3 or not 1 <= target <= 99:
            raise CommandError("--deals >= 1, --match-games >= 3, --target in 1..99.")
        seed = seed or new_seed()
        result = {"seed": seed, "target": target}
        if not opts["no_ladder"]:
            ladder = run_ladder(
                bots,
                deals=deals,
                seed=seed,
                target=target,
                processes=processes,
                on_outcome=self._progress,
            )
            self._print_ladder(ladder, deals)
            result["ladder"] = [standing.as_dict() for standing in ladder.table()]
        result["matches"] = [
            self._match(a, b, match_games, seed, target, processes) for a, b in pairs
        ]
        self.stdout.write(json.dumps(result, sort_keys=True))

    def _progress(self, done: int, total: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\r{done}/{total} games")
            if done == total:
                sys.stderr.write("\n")

    def _print_ladder(self, ladder: Ladder, deals: int) -> None:
        games = sum(s.games for s in ladder.standings.values()) // 3
        self.stdout.write(
            f"Ladder: {games} games ({deals} deals x 6 seatings per lineup), "
            f"{ladder.plays} cards, {ladder.seconds:.0f} s of play"
        )
        self.stdout.write(
            f"{'bot':<11}{'level':<8}{'mu':>7}{'sigma':>7}  {'mu +- 2 sigma':<16}"
            f"{'games':>7}{'win rate':>10}  95% interval"
        )
        for s in ladder.table():
            level = LEVEL_OF_BOT.get(s.bot)
            low, high = wilson_interval(s.wins, s.games)
            self.stdout.write(
                f"{s.bot:<11}{level.key if level else '':<8}{s.mu:7.2f}{s.sigma:7.2f}  "
                f"{s.low:6.2f} .. {s.high:<6.2f}{s.games:7d}{s.wins / s.games:10.1%}  "
                f"{low:.1%} .. {high:.1%}"
            )

    def _match(self, a: str, b: str, games: int, seed: str, target: int, processes) -> dict:
        jobs = match_jobs([(a, b, b)], deals=-(-games // 3), seed=f"{seed}/match", target=target)
        wins = plays = 0
        for outcome in play_jobs(jobs, processes):
            wins += outcome.job.seating[outcome.winner] == a
            plays += 1
        low, high = wilson_interval(wins, plays)
        self.stdout.write(
            f"{a} vs two {b}: {wins}/{plays} = {wins / plays:.1%} (95%: {low:.1%} .. {high:.1%})"
        )
        return {
            "bot": a,
            "against": b,
            "games": plays,
            "wins": wins,
            "win_rate": round(wins / plays, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }
