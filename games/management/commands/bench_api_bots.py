"""Benchmark the Bot API: N programs at once on one Daphne, people's tables beside them.

Needs PostgreSQL (DATABASE_URL): the server and this command share the database. The last
line of output is a JSON object with the figures.
"""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from lab.benchmarks.api_bots import LEVEL_OF_KEY, benchmark


class Command(BaseCommand):
    help = "Drive N Bot API programs (each against two site bots) and M people's tables."

    def add_arguments(self, parser):
        parser.add_argument("--bots", type=int, default=100)
        parser.add_argument("--tables", type=int, default=20, help="people's tables beside")
        parser.add_argument("--think", type=float, default=1.0, help="seconds per card")
        parser.add_argument("--seconds", type=float, default=60.0)
        parser.add_argument(
            "--opponents", default="medium,medium", help="the site bots' levels, e.g. easy,hard"
        )

    def handle(self, *args, bots, tables, think, seconds, opponents, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        levels = opponents.split(",")
        if len(levels) != 2 or not set(levels) <= set(LEVEL_OF_KEY):
            raise CommandError(f"--opponents: two of {', '.join(LEVEL_OF_KEY)}.")
        if bots < 1 or tables < 0 or seconds <= 0 or think < 0:
            raise CommandError("--bots and --seconds must be positive.")
        figures = benchmark(
            bots=bots, tables=tables, think=think, seconds=seconds, opponents=levels
        )
        rt, up = figures["api_move_round_trip_ms"], figures["api_move_to_stream_update_ms"]
        people = figures["people_move_to_update_ms"]
        self.stdout.write(
            f"{bots} API bots and {tables} people's tables on one Daphne, "
            f"{figures['seconds']} s: {figures['api_moves']} API moves "
            f"({figures['api_moves_per_second']}/s), {figures['api_games_finished']} games "
            f"finished\nAPI move round trip: p50 {rt['p50']} ms, p99 {rt['p99']} ms; to the "
            f"stream's update: p50 {up['p50']} ms, p99 {up['p99']} ms\npeople's move-to-update "
            f"meanwhile: p50 {people['p50']} ms, p99 {people['p99']} ms; errors "
            f"{figures['errors']}"
        )
        self.stdout.write(json.dumps(figures))
