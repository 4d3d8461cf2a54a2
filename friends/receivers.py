"""What friends adds to other pages (a player's page: follow, and followers), and its
housekeeping on the table runners."""

import time

from django.dispatch import receiver

from games.signals import player_page, runner_idle

from .services import are_friends, followers_count, follows, forget_stale_invitations

TIDY_EVERY = 60.0  # seconds between two sweeps of invitations nobody can take up
_last_tidy = [0.0]


@receiver(player_page, dispatch_uid="friends.follow_on_player_page")
def follow_on_player_page(sender, player, viewer, **kwargs) -> dict:
    mine = viewer.is_authenticated and viewer.pk == player.pk
    following = not mine and follows(viewer, player)
    return {
        "friendship": {
            "followers": followers_count(player),
            "can_follow": viewer.is_authenticated and not mine,
            "following": following,
            "friends": following and are_friends(viewer, player),
        }
    }


@receiver(runner_idle, dispatch_uid="friends.forget_stale_invitations")
def stale_invitations_forgotten(sender, **kwargs):
    now = time.monotonic()
    if now - _last_tidy[0] >= TIDY_EVERY:
        _last_tidy[0] = now
        forget_stale_invitations()
