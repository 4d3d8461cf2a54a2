"""Signals other apps listen to, so games need not know about them (ratings, for one)."""

from functools import partial

from django.db import transaction
from django.dispatch import Signal

# Sent once a game's final state is committed (finished, or abandoned after its deal),
# with ``game_id``.
game_over = Signal()


def announce_game_over(game_id: int) -> None:
    """Send ``game_over`` for ``game_id`` once the current transaction commits."""
    transaction.on_commit(partial(game_over.send, sender=None, game_id=game_id))


# Sent (no arguments) by each table runner about once a second when no table is due: other
# apps' background work rides on the same runners (ratings' recompute requests, for one).
runner_idle = Signal()
