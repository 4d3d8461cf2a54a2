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

# Asked what other apps show on a player's page, with ``player`` and ``viewer``: each
# receiver returns a dict added to the page's context (ratings: ``rating`` and
# ``rating_history``).
player_page = Signal()

# Asked, with ``game_id``, for the rating each seat of a finished rated game has after it:
# a receiver returns ``{seat: {"after": shown rating, "delta": its change}}``, empty while
# the game is not rated yet (ratings).
rating_changes_of = Signal()


def asked(signal: Signal, **kwargs) -> dict:
    """Every receiver's answer to ``signal``, merged (later receivers win a shared key)."""
    merged: dict = {}
    for _receiver, answer in signal.send(sender=None, **kwargs):
        merged.update(answer or {})
    return merged
