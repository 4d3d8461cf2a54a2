"""Analysis listens to the tables: a game that ends is queued for analysis."""

from django.dispatch import receiver

from games.signals import game_over

from .services import queue_analysis


@receiver(game_over, dispatch_uid="analysis.queue_finished_game")
def finished_game_queued(sender, game_id, **kwargs):
    queue_analysis(game_id)
