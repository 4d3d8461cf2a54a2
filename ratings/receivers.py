"""Rate each game once it is over, from the table runner that serves its aftermath.

A game's last card schedules its aftermath (``Game.due_at``) in the same transaction, so a
game ends rated even if the process that played its last card dies right after: whichever
runner is alive picks the aftermath up (``games/runner.py``), off the move's path.
"""

import logging

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games.signals import game_over, runner_idle

from .models import RatingsRecompute
from .services import game_rate, ratings_recompute

log = logging.getLogger(__name__)


@receiver(game_over)
def rate_finished_game(sender, game_id: int, **kwargs) -> None:
    """Rate the game inside its aftermath's transaction (idempotent); a failure leaves the
    aftermath due, and the runner tries again a little later."""
    game_rate(game_id=game_id)


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
