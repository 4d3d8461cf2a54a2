"""What ratings does for games: rate each game once it is over, from the table runner that
serves its aftermath; serve recompute requests; answer the pages' questions (a player's
rating, a finished game's rating changes).

A game's last card schedules its aftermath (``Game.due_at``) in the same transaction, so a
game ends rated even if the process that played its last card dies right after: whichever
runner is alive picks the aftermath up (``games/runner.py``), off the move's path.
"""

import logging

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.signals import game_over, player_page, rating_changes_of, runner_idle

from .models import PlayerRating, RatingsRecompute
from .selectors import rating_changes, rating_history
from .services import game_rate, ratings_recompute

log = logging.getLogger(__name__)


@receiver(game_over)
def rate_finished_game(sender, game_id: int, **kwargs) -> None:
    """Rate the game inside its aftermath's transaction (idempotent); a failure leaves the
    aftermath due, and the runner tries again a little later."""
    game_rate(game_id=game_id)


@receiver(player_page)
def rating_on_player_page(sender, player, viewer, **kwargs) -> dict:
    """A player's rating and their last 20 rated games, as ``viewer`` may see them."""
    return {
        "rating": PlayerRating.objects.filter(user=player).first(),
        "rating_history": rating_history(player, viewer)[:20],
    }


@receiver(rating_changes_of)
def ratings_after_game(sender, game_id: int, **kwargs) -> dict:
    return rating_changes(game_id)


@receiver(runner_idle)
def recompute_when_asked(sender, **kwargs) -> None:
    """Serve the oldest pending recompute request (one runner at a time: the row is locked,
    the others pass). A runner killed mid-way leaves it pending: another one redoes it."""
    with transaction.atomic():
        request = (
            RatingsRecompute.objects.select_for_update(skip_locked=True)
            .filter(finished_at=None)
            .order_by("requested_at")
            .first()
        )
        if request is None:
            return
        request.games = ratings_recompute()
        request.finished_at = timezone.now()
        request.save(update_fields=["games", "finished_at"])
        RatingsRecompute.objects.filter(
            finished_at=None, requested_at__lte=request.requested_at
        ).update(finished_at=request.finished_at, games=request.games)
