"""A person's card without the locking read: one statement, one round trip, where the
locked path (``locked_table``) takes four (``BEGIN``, the row's ``SELECT ... FOR UPDATE``,
the batch, ``COMMIT``).

The process's cached copy of the game (``games.table.state_cache``) is played on at once,
and the batch goes in one statement that commits on its own. Its first part locks the game
row where it still has the move count and ``updated_at`` the copy was cached with (every
change of seats or state saves the row, as the cache itself relies on), and every other
part waits on that part: a row that changed meanwhile gets nothing written, and the card
is played again under the lock. So does a card the copy refuses (the locked path gives the
answer), and a batch that would need more than its one statement (a new deal, the game's
end, a seat's change: ``NeedsLock``). PostgreSQL only; elsewhere, inside an outer
transaction, or with ``COINS_UNLOCKED_MOVES`` off, every card takes the lock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from django.conf import settings
from django.db import connection, transaction

from games.engine import IllegalPlay
from games.table.errors import GameError
from games.table.lifecycle import Table
from games.table.loading import LoadedGame, cached_game
from games.table.move_rows import NeedsLock, StaleTable, writes_together
from games.table.move_sql import GUARD

log = logging.getLogger(__name__)

T = TypeVar("T")

EXPECTED = (StaleTable, NeedsLock, GameError, IllegalPlay)  # the locked path decides these


def play_unlocked(
    game_id: int,
    seed: str,
    moves: int | None,
    skip_channel: str,
    change: Callable[[Table], T],
    needs_lock: Callable[[LoadedGame], bool] | None = None,
) -> T | None:
    """Run ``change`` on this process's copy of the game after ``moves`` plays and write
    it guarded; return what it returned, or None if the card must be played under the
    lock instead (nothing was written then). ``needs_lock``: says from the copy, before
    anything is played, that the change will need the lock (it would be played twice)."""
    if moves is None or not _possible():
        return None
    loaded = cached_game(game_id, seed, moves)
    if loaded is None or not loaded.game.is_running:
        return None
    if needs_lock is not None and needs_lock(loaded):
        return None
    game = loaded.game
    table = Table(game, skip_channel, loaded=loaded, guard=(moves, game.updated_at))
    kept = {"written": False}
    try:
        with transaction.atomic(), _one_statement_commits(kept):
            result = change(table)
            table.finish()
        return result
    except Exception as error:
        if kept["written"] and not isinstance(error, StaleTable):
            raise  # the card is kept: what failed came after (a callback on commit)
        if not isinstance(error, EXPECTED):
            log.warning("Card at table %s played again under the lock", game_id, exc_info=True)
        return None


def _possible() -> bool:
    return (
        settings.COINS_UNLOCKED_MOVES
        and not connection.in_atomic_block  # an outer transaction: the card is part of it
        and writes_together()
    )


@contextmanager
def _one_statement_commits(kept: dict) -> Iterator[None]:
    """Inside ``transaction.atomic``: Django queues what waits for the commit as for any
    transaction, while the database connection stays in autocommit, so the guarded batch
    commits on its own (no ``BEGIN``, no ``COMMIT``: psycopg skips both on an idle
    connection). Any other statement is refused before it runs (it would commit alone):
    a copy that needs one is played under the lock instead."""
    raw = connection.connection
    raw.autocommit = True

    def only_the_batch(execute, sql, params, many, context):
        if not sql.startswith("WITH guard AS (" + GUARD):
            raise NeedsLock("a statement besides the batch")
        result = execute(sql, params, many, context)
        kept["written"] = True  # committed, or nothing written (``StaleTable`` follows)
        return result

    try:
        with connection.execute_wrapper(only_the_batch):
            yield
    finally:
        raw.autocommit = False  # as Django left it: its commit or rollback has nothing to do
