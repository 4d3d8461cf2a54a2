"""A per-process cache of engine states rebuilt from rows, so a move need not replay the game.

An entry is valid only for the move count it was stored at: the game row's ``moves`` is read
under the row lock, so a state cached by this process after move N is exactly what the rows
say after move N, whichever worker wrote them. Entries are stored on commit and handed out
as clones, so a failed transaction can never leave a changed state behind.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from .engine import GameState

MAX_GAMES = 5000

_entries: OrderedDict[tuple[int, str], tuple[int, GameState, dict[int, int], int | None]] = (
    OrderedDict()
)
_lock = Lock()


def get(key: tuple[int, str], moves: int) -> tuple[GameState, dict[int, int], int | None] | None:
    """Return a private copy of the cached state of game ``key`` after ``moves`` plays.

    ``key`` is the game's id and seed, so a reused id (a test database) never matches.
    """
    with _lock:
        entry = _entries.get(key)
        if entry is None or entry[0] != moves:
            return None
        _entries.move_to_end(key)
        _, state, hand_ids, trick_id = entry
        return state.clone(), dict(hand_ids), trick_id


def put(key: tuple[int, str], moves: int, state: GameState, hand_ids: dict[int, int], trick_id):
    """Remember ``state`` as game ``key`` after ``moves`` plays (a copy is kept)."""
    with _lock:
        _entries[key] = (moves, state.clone(), dict(hand_ids), trick_id)
        _entries.move_to_end(key)
        while len(_entries) > MAX_GAMES:
            _entries.popitem(last=False)


def clear() -> None:
    with _lock:
        _entries.clear()
