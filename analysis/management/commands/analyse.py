"""``manage.py analyse --games N``: analyse finished games through the analysis lane's own
code (claim, work, save: the same as the runners), in this process, and print how fast."""

import time

from django.core.management.base import BaseCommand, CommandError

from analysis.models import GameAnalysis
from analysis.services import claim_next, queue_analysis, save
from analysis.work import work
from games.models import Game


class Command(BaseCommand):
    help = "Analyse finished games (newest first) and print games per minute and CPU per card."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=100, help="games to analyse")
        parser.add_argument(
            "--again", action="store_true", help="analyse games already analysed too"
        )

    def handle(self, *args, games, again, **options):
        if games < 1:
            raise CommandError("--games must be at least 1.")
        over = Game.objects.filter(status__in=[Game.Status.FINISHED, Game.Status.ABANDONED])
        over = over.exclude(first_dealer__isnull=True).order_by("-pk")
        if not again:
            over = over.exclude(analysis__status=GameAnalysis.Status.DONE)
        chosen = list(over.values_list("pk", flat=True)[:games])
        if not chosen:
            raise CommandError("No finished game to analyse (seed some: manage.py seed_scale).")
        for game_id in chosen:
            queue_analysis(game_id)
        GameAnalysis.objects.filter(game_id__in=chosen).update(
            status=GameAnalysis.Status.PENDING, attempts=0, lease_until=None
        )
        done = cards = 0
        cpu = slowest = 0.0
        started = time.perf_counter()
        while done < len(chosen):
            job = claim_next()
            if job is None:
                break
            result = work(job)
            save(job, result)
            done += 1
            cards += len(job.moves)
            cpu += result["cpu_seconds"]
            slowest = max(slowest, result["cpu_seconds"])
            if done % 10 == 0 or done == len(chosen):
                self.stdout.write(f"{done}/{len(chosen)} games")
        wall = time.perf_counter() - started
        self.stdout.write(
            f"analysed {done} games ({cards} cards) in {wall:.1f} s: "
            f"{done / wall * 60:.1f} games per minute, {cpu / max(cards, 1) * 1000:.1f} ms CPU "
            f"per card, {cpu / max(done, 1):.2f} s CPU per game on average, {slowest:.2f} s at "
            "most (budget 30 s)"
        )
