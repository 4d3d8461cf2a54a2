"""What a table's socket costs the server as it opens (``lab/benchmarks/openings.py``). Needs
PostgreSQL (DATABASE_URL): the server and this command share the database. The last line of
output is one JSON object; with ``--rounds``, the round of the median CPU."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from lab.benchmarks.openings import bench_openings


class Command(BaseCommand):
    help = "Open table sockets again and again against one Daphne: CPU and wait per opening."

    def add_arguments(self, parser):
        parser.add_argument("--people", type=int, default=10, help="people opening at once")
        parser.add_argument("--openings", type=int, default=30, help="sockets each opens")
        parser.add_argument(
            "--new-games",
            action="store_true",
            help="a new game before each opening (quick play), as after a game's end; "
            "without it each person reopens the same table, as a reload does",
        )
        parser.add_argument(
            "--play-now",
            action="store_true",
            help="each new game started as the page's Play now does, over HTTP (the form's "
            "POST, then the new game's page), then its socket: CPU per new game, and the wait "
            "from the click to the first board",
        )
        parser.add_argument("--rounds", type=int, default=3, help="runs, each on its server")

    def handle(self, *args, people, openings, new_games, play_now, rounds, **options):
        if people < 1 or openings < 2 or rounds < 1:
            raise CommandError("--people and --rounds must be positive, --openings at least 2.")
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        runs = []
        for _ in range(rounds):
            run = bench_openings(
                people=people, openings=openings, new_games=new_games, play_now=play_now
            )
            runs.append(run)
            wait = run["first_board_ms"]
            kind = "reloads"
            if new_games or play_now:
                kind = "Play now, page and socket" if play_now else "new games"
            self.stdout.write(
                f"{run['openings']} openings ({kind}) by "
                f"{people} people in {run['seconds']} s: server CPU "
                f"{run['server_cpu_ms_per_opening']} ms per opening; first board p50 "
                f"{wait['p50']} ms, p95 {wait['p95']} ms, p99 {wait['p99']} ms"
            )
        middle = sorted(runs, key=lambda run: run["server_cpu_ms_per_opening"] or 0)
        self.stdout.write(json.dumps(middle[len(runs) // 2]))
