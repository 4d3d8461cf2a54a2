"""Seed finished tournaments in bulk (1,000 of 30 entries by default) and time the
tournament pages: p50/p95 and queries per page, then one JSON line."""

import json

from django.core.management.base import BaseCommand
from django.db import connection

from lab.benchmarks.tournament_pages import bench, seed
from tournaments.models import Entry, Tournament


class Command(BaseCommand):
    help = "Seed finished tournaments, then print p50/p95 and queries per tournament page."

    def add_arguments(self, parser):
        parser.add_argument("--tournaments", type=int, default=1000)
        parser.add_argument("--entries", type=int, default=30, help="entries a tournament")
        parser.add_argument("--requests", type=int, default=50, help="timed requests a page")

    def handle(self, *args, tournaments: int, entries: int, requests: int, **options):
        made = seed(tournaments=tournaments, entries=entries)
        volume = {
            "tournaments": Tournament.objects.count(),
            "entries": Entry.objects.count(),
            "seeded_now": made,
            "database": connection.vendor,
        }
        self.stdout.write(
            f"{volume['tournaments']} tournaments, {volume['entries']} entries "
            f"({volume['database']}), {requests} requests a page"
        )
        results = bench(requests=requests, out=self.stdout)
        self.stdout.write(json.dumps({**volume, "pages": results}))
