"""Write ``games/engine/bots/data/race_table.py`` again from its seed: the chances of winning
the race to the target from the end of a hand (see `lab/race_table.py`)."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand

from lab import race_table as race


class Command(BaseCommand):
    help = "Regenerate the race table of the hard bot (reproducible from its seed)."

    def add_arguments(self, parser):
        parser.add_argument("--hands", type=int, default=race.HANDS)
        parser.add_argument("--seed", default=race.SEED)
        parser.add_argument("--max-distance", type=int, default=race.MAX_DISTANCE)
        parser.add_argument("--out", default=str(race.TABLE_PATH))

    def handle(self, *args, hands, seed, max_distance, out, **options):
        started = time.perf_counter()
        table = race.build_table(hands, seed, max_distance)
        Path(out).write_text(race.render_module(table, hands, seed, max_distance))
        seconds = time.perf_counter() - started
        self.stdout.write(f"wrote {out}: {len(table)} states from {hands} hands, {seconds:.0f} s")
