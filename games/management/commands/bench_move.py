"""CPU per person's card in one process (``lab/benchmarks/move_cpu.py``). The last line of
output is one JSON object."""

import json

from django.core.management.base import BaseCommand

from lab.benchmarks.move_cpu import measure


class Command(BaseCommand):
    help = "Measure the CPU of a person's card (with both bots' answers and the board)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=600, help="cards to time")
        parser.add_argument("--rounds", type=int, default=3, help="runs; the median is kept")

    def handle(self, *args, moves, rounds, **options):
        runs = [measure(moves) for _ in range(rounds)]
        for run in runs:
            self.stdout.write(
                f"{run['moves']} cards in {run['games']} games: mean {run['cpu_ms_mean']} ms,"
                f" p50 {run['cpu_ms_p50']} ms, p90 {run['cpu_ms_p90']} ms of CPU;"
                f" wall p50 {run['wall_ms_p50']} ms, p90 {run['wall_ms_p90']} ms;"
                f" CPU mean by kind {_by_kind(run)}"
            )
        middle = sorted(runs, key=lambda run: run["cpu_ms_mean"])[len(runs) // 2]
        self.stdout.write(json.dumps(middle))


def _by_kind(run: dict) -> str:
    """"game_end 7.1 ms (39), ..." from a run's means and counts by kind of card."""
    means, counts = run["cpu_ms_mean_by_kind"], run["cards_by_kind"]
    return ", ".join(f"{kind} {means[kind]} ms ({counts[kind]})" for kind in means)
