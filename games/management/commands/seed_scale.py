"""Fill the database with years of real games, to measure pages at scale (``bench_pages``).

The last line of output is one JSON object.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from lab.benchmarks.seed import Seeder, boards_ensure, people_make


class Command(BaseCommand):
    help = (
        "Play N games with the engine's bots among M people (a few heavy players) and bots, "
        "and bulk-insert them with their hands, tricks, plays, ratings, stats and standings."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000, help="games to add (default 1000)")
        parser.add_argument("--people", type=int, default=100, help="people (default 100)")
        parser.add_argument("--seed", default="scale", help="the same seed plays the same games")
        parser.add_argument("--prefix", default="scale", help="usernames: <prefix>-00001...")

    def handle(self, *args, games: int, people: int, seed: str, prefix: str, **options):
        if games < 1 or people < 3:
            raise CommandError("Give at least one game and three people.")
        boards = boards_ensure()
        users = people_make(people, prefix)
        self.stdout.write(f"{len(users)} people, boards: {', '.join(b.slug for b in boards)}")
        summary = Seeder(games=games, people=users, seed=seed, out=self.stdout).run()
        self.stdout.write(json.dumps(summary))
