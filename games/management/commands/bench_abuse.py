"""Repeat every attack a review measured against a real server (bursts of 50 at once) and
print, beside each, what was refused and what two normal players felt meanwhile. The last
line is JSON."""

import json

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from lab.benchmarks.abuse import benchmark


class Command(BaseCommand):
    help = "Bursts, floods and crowds against a fresh server; what was refused; players' lag."

    def add_arguments(self, parser):
        parser.add_argument("--hinters", type=int, default=20, help="accounts asking for hints")
        parser.add_argument("--watchers", type=int, default=500, help="watchers at one table")

    def handle(self, *args, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        figures = benchmark(hinters=options["hinters"], watchers=options["watchers"])
        for step, numbers in figures.items():
            self.stdout.write(f"{step}:")
            for key, value in numbers.items():
                self.stdout.write(f"  {key}: {json.dumps(value)}")
        self.stdout.write(json.dumps(figures))
