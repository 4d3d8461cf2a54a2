"""Fill the database with years of real games, to measure pages at scale (``bench_pages``).

The last line of output is one JSON object.
"""

import argparse
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
        parser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="processes playing and writing games (default: one per core on PostgreSQL "
            "from 2,000 games, else 1)",
        )
        parser.add_argument(
            "--bulk",
            action=argparse.BooleanOptionalAction,
            default=None,
            help="set the game tables' indexes aside while loading and build them after "
            "(PostgreSQL; default from 20,000 games). Nothing else may use the database meanwhile.",
        )

    def handle(self, *args, games, people, seed, prefix, workers, bulk, **options):
        if games < 1 or people < 3:
            raise CommandError("Give at least one game and three people.")
        boards = boards_ensure()
        users = people_make(people, prefix)
        self.stdout.write(f"{len(users)} people, boards: {', '.join(b.slug for b in boards)}")
        if workers is not None and workers < 1:
            raise CommandError("Give at least one worker.")
        seeder = Seeder(
            games=games, people=users, seed=seed, out=self.stdout, workers=workers, bulk=bulk
        )
        summary = seeder.run()
        self.stdout.write(json.dumps(summary))
