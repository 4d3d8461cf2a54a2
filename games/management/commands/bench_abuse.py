"""Repeat the abuse a review measured against a real server and print what was refused,
and what a normal player on another table felt meanwhile. The last line is JSON."""

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.benchmarks.abuse import benchmark


class Command(BaseCommand):
    help = "Floods, bursts and storms against a fresh server; what was refused; a player's lag."

    def handle(self, *args, **options):
        if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        figures = benchmark()
        for step, numbers in figures.items():
            shown = ", ".join(f"{key} {value}" for key, value in numbers.items())
            self.stdout.write(f"{step}: {shown}")
        self.stdout.write(json.dumps(figures))
