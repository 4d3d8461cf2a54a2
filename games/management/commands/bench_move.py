"""CPU per person's card in one process (``lab/benchmarks/move_cpu.py``). The last line of
output is one JSON object."""

import json

from django.core.management.base import BaseCommand

from lab.benchmarks.move_cpu import measure, measure_runner


class Command(BaseCommand):
    help = "Measure the CPU of a person's card (with both bots' answers and the board)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=600, help="cards to time")
        parser.add_argument("--rounds", type=int, default=3, help="runs; the median is kept")
        parser.add_argument(
            "--runner",
            action="store_true",
            help="time a bot's card as the site plays it instead: served by a table runner "
            "after the bot's pause (--moves of them)",
        )

    def handle(self, *args, moves, rounds, runner, **options):
        if runner:
            runs = [measure_runner(moves) for _ in range(rounds)]
            return self.report(runs, lambda run: f"{run['cards']} bot cards served by a runner")
        runs = [measure(moves) for _ in range(rounds)]
        self.report(runs, lambda run: f"{run['moves']} cards", _by_kind)

    def report(self, runs: list[dict], what, by_kind=None) -> None:
        """A line per run, then the run of median CPU as one JSON object."""
        for run in runs:
            self.stdout.write(
                f"{what(run)} in {run['games']} games: mean {run['cpu_ms_mean']} ms,"
                f" p50 {run['cpu_ms_p50']} ms, p90 {run['cpu_ms_p90']} ms of CPU;"
                f" wall p50 {run['wall_ms_p50']} ms, p90 {run['wall_ms_p90']} ms"
                + (f"; CPU mean by kind {by_kind(run)}" if by_kind else "")
            )
        middle = sorted(runs, key=lambda run: run["cpu_ms_mean"])[len(runs) // 2]
        self.stdout.write(json.dumps(middle))


def _by_kind(run: dict) -> str:
    """"game_end 7.1 ms (39), ..." from a run's means and counts by kind of card."""
    means, counts = run["cpu_ms_mean_by_kind"], run["cards_by_kind"]
    return ", ".join(f"{kind} {means[kind]} ms ({counts[kind]})" for kind in means)
