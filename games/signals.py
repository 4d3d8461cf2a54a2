"""Signals other apps listen to, so games need not know about them (ratings, for one)."""

from django.dispatch import Signal

# Sent once a game's final state is committed (finished, or abandoned after its deal),
# with ``game_id``.
game_over = Signal()
