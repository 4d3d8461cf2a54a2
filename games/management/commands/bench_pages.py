"""Time every kind of read page (leaderboards, history, profile, replay, admin) against the
data in the database: p50/p95 and queries per page kind, then one JSON line."""

import json

from django.core.management.base import BaseCommand
from django.db import connection

from games.models import Game, Play, PlayerStats
from lab.benchmarks.pages import bench


class Command(BaseCommand):
    help = "Print p50/p95 latency and queries per page kind, then a JSON line."

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=50, help="timed requests a page")
        parser.add_argument("--only", default="", help="only page kinds whose name has this")
        parser.add_argument(
            "--daphne",
            action="store_true",
            help="time requests over HTTP to a Daphne this run starts (else: in this process)",
        )

    def handle(self, *args, requests: int, only: str, daphne: bool, **options):
        volume = {
            "games": Game.objects.count(),
            "people": PlayerStats.objects.count(),
            "plays": _estimate(Play),
            "database": connection.vendor,
            "served_by": "daphne" if daphne else "this process",
        }
        self.stdout.write(
            f"{volume['games']} games, {volume['people']} people, ~{volume['plays']} plays "
            f"({volume['database']}), {requests} requests a page"
            + (" over HTTP to a Daphne" if daphne else " in this process")
        )
        results = bench(requests=requests, only=only, out=self.stdout, daphne=daphne)
        worst = max((r["p95_ms"] for r in results), default=0.0)
        self.stdout.write(json.dumps({**volume, "worst_p95_ms": worst, "pages": results}))


def _estimate(model) -> int:
    """Rows in ``model``'s table: the planner's estimate on PostgreSQL (a count of millions
    of rows would take longer than the benchmark), a count elsewhere."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT reltuples::bigint FROM pg_class WHERE relname = %s",
                [model._meta.db_table],
            )
            row = cursor.fetchone()
            return int(row[0]) if row else 0
    return model.objects.count()
