"""``manage.py find_puzzles``: look for puzzles in every finished analysis (games analysed
before puzzles existed, or after a change of ``COINS_PUZZLE_MARGIN``). Finding is idempotent."""

from django.core.management.base import BaseCommand

from analysis.models import GameAnalysis
from puzzles.finding import puzzles_from_analysis


class Command(BaseCommand):
    help = "Find puzzles in every done analysis (positions found before are kept once)."

    def handle(self, *args, **options):
        analyses = GameAnalysis.objects.filter(status=GameAnalysis.Status.DONE).select_related(
            "game"
        )
        found = sum(len(puzzles_from_analysis(analysis)) for analysis in analyses.iterator())
        self.stdout.write(f"{found} puzzles found in {analyses.count()} analysed games")
