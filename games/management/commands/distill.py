"""Write ``games/engine/bots/data/distilled_weights.py`` again: the distilled play-out policy
fitted to the search bots' choices in seeded games (see `lab/distill.py`)."""

import time
from pathlib import Path

from django.core.management.base import BaseCommand

from lab import distill


class Command(BaseCommand):
    help = "Refit the distilled play-out policy to the search bots' choices (reproducible)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=distill.GAMES)
        parser.add_argument("--seed", default=distill.SEED)
        parser.add_argument("--processes", type=int, help="worker processes (default: cores)")
        parser.add_argument("--out", default=str(distill.WEIGHTS_PATH))

    def handle(self, *args, games, seed, processes, out, **options):
        started = time.perf_counter()
        choices = distill.collect(games, seed, processes)
        fitted = distill.fit(choices)
        Path(out).write_text(distill.render_module(fitted, games, seed, len(choices)))
        seconds = time.perf_counter() - started
        hits = ", ".join(f"{name.lower()} {hits:.1%}" for name, (_, hits) in fitted.items())
        self.stdout.write(
            f"wrote {out}: {len(choices)} choices from {games} games ({hits}), {seconds:.0f} s"
        )
