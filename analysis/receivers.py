"""Analysis listens to the tables (a game that ends is queued for analysis) and answers the
pages' questions (the replay's analysis, a player's progress)."""

from django.dispatch import receiver

from games.signals import game_over, player_page, replay_page

from .progress import progress
from .replay import replay_notes
from .services import queue_analysis


@receiver(game_over, dispatch_uid="analysis.queue_finished_game")
def finished_game_queued(sender, game_id, **kwargs):
    queue_analysis(game_id)


@receiver(replay_page, dispatch_uid="analysis.replay_page")
def analysis_in_replay(sender, game, viewer_seat, names, hand, trick, url, **kwargs) -> dict:
    return replay_notes(game, viewer_seat=viewer_seat, names=names, hand=hand, trick=trick, url=url)


@receiver(player_page, dispatch_uid="analysis.player_page")
def progress_on_player_page(sender, player, viewer, **kwargs) -> dict:
    return {"progress": progress(player, viewer)}
