"""Measure the ratings recompute (``lab.benchmarks.recompute``); the last line of output is
one JSON object."""

import json

from django.core.management.base import BaseCommand

from lab.benchmarks.recompute import (
    bot_delays_during_recompute,
    finished_games_insert,
    recompute_timed,
)
from lab.benchmarks.seed import boards_ensure


class Command(BaseCommand):
    help = (
        "Add finished games (--games, among --people), time a recompute of every rating "
        "(games per second, the swap), and with --tables time the bot cards at another table "
        "while a runner of its own serves a recompute and games end."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=0, help="finished games to add first")
        parser.add_argument("--people", type=int, default=2000)
        parser.add_argument("--tables", action="store_true", help="time bot cards meanwhile")
        parser.add_argument("--no-timing", action="store_true", help="skip the timed recompute")
        parser.add_argument(
            "--baseline", type=float, default=0, help="with --tables: N seconds, no recompute"
        )

    def handle(self, *args, games, people, tables, no_timing, baseline, **options):
        summary = {}
        if games:
            boards_ensure()  # standings to rebuild, as on the site
            finished_games_insert(games, people)
        if not no_timing:
            summary["recompute"] = recompute_timed()
            self.stdout.write(f"recompute: {summary['recompute']}")
        if tables:
            summary["tables"] = bot_delays_during_recompute(baseline=baseline)
            self.stdout.write(f"tables: {summary['tables']}")
        self.stdout.write(json.dumps(summary))
