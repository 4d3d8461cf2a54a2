"""Keeping the boards' ranked lines (``ratings.ranks``) in step."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.signals import runner_idle

from .models import Leaderboard, LeaderboardExclusion
from .ranks import ranks_forget, ranks_refresh_due


@receiver(runner_idle)
def rank_boards_behind(sender, **kwargs) -> None:
    ranks_refresh_due()


@receiver(post_save, sender=Leaderboard)
def rank_saved_board_again(sender, instance: Leaderboard, raw=False, **kwargs) -> None:
    """A minimum of games, bots listed or not, a new window: other lines are listed."""
    if not raw:
        instance.ranked_at = None
        ranks_forget(instance.pk)


@receiver(post_save, sender=LeaderboardExclusion)
@receiver(post_delete, sender=LeaderboardExclusion)
def rank_again_for_exclusion(sender, instance: LeaderboardExclusion, **kwargs) -> None:
    ranks_forget(instance.leaderboard_id)
