"""A person's card without the locking read: one statement, one round trip, where the
locked path (``locked_table``) takes four (``BEGIN``, the row's ``SELECT ... FOR UPDATE``,
the batch, ``COMMIT``).

The process's cached copy of the game (``games.table.state_cache``) is played on at once,
and the batch goes in one statement that commits on its own. Its first part locks the game
row where it still has the move count and ``updated_at`` the copy was cached with (every
change of seats or state saves the row, as the cache itself relies on), and every other
part waits on that part: a row that changed meanwhile gets nothing written, and the card
is played again under the lock. So does a card the copy refuses (the locked path gives the
answer), and a batch that would need more than its one statement (a seat's change, a slow
clock's notice: ``NeedsLock``); a new deal's hand and a won game's outcomes are parts of it.
PostgreSQL only; elsewhere, inside an outer transaction, or with ``COINS_UNLOCKED_MOVES``
off, every card takes the lock.

A socket's card goes this way without a database thread: ``prepare_on_copy`` plays it on
the copy and keeps the statement for the event loop to send (``games/realtime/loop_card.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction

from games.engine import IllegalPlay
from games.table.errors import GameError
from games.table.lifecycle import Table
from games.table.loading import cached_game
from games.table.move_rows import (
    NeedsLock,
    StaleTable,
    batch_taken,
    batch_written,
    writes_together,
)
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
) -> T | None:
    """Run ``change`` on this process's copy of the game after ``moves`` plays and write
    it guarded; return what it returned, or None if the card must be played under the
    lock instead (nothing was written then)."""
    if not _possible():
        return None
    table = _table_on_copy(game_id, seed, moves, skip_channel)
    if table is None:
        return None
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


def _table_on_copy(game_id: int, seed: str, moves: int | None, skip_channel: str) -> Table | None:
    """A table on this process's copy of the game after ``moves`` plays, its write guarded;
    None if there is no such copy."""
    if moves is None:
        return None
    loaded = cached_game(game_id, seed, moves)
    if loaded is None or not loaded.game.is_running:
        return None
    game = loaded.game
    return Table(game, skip_channel, loaded=loaded, guard=(moves, game.updated_at))


@dataclass
class Prepared(Generic[T]):
    """A change played on the copy whose one statement is still to be sent: what the
    change returned, the statement, and what waits for its commit."""

    table: Table
    result: T
    statement: tuple[str, list]
    on_commit: list[Callable[[], object]]

    def written(self, row: tuple | None) -> None:
        """The statement returned ``row`` (it committed): check it (``StaleTable`` if it
        found the row changed and wrote nothing), then do what waited for the commit.
        A failure there is logged: the card is kept, and its board must still go."""
        batch_written(self.table.rows, row, self.table.guard)
        for call in self.on_commit:
            try:
                call()
            except Exception:
                log.exception("After a card at table %s", self.table.game.pk)


def prepare_on_copy(
    game_id: int,
    seed: str,
    moves: int | None,
    skip_channel: str,
    change: Callable[[Table], T],
) -> Prepared[T] | None:
    """``play_unlocked`` up to its statement, for a caller on an event loop: ``change`` is
    run on the copy and nothing touches Django's connection (a statement would raise,
    Django refusing synchronous database work on an event loop, and the card would go to
    the locked path). The caller sends ``statement`` on a connection of its own, then
    calls ``written``. None: the card must take another path (nothing was sent);
    ``NeedsLock``: that path is the lock's (a seat's change, say), and trying the copy
    again there would play the card once more for nothing."""
    if not (settings.COINS_UNLOCKED_MOVES and writes_together()):
        return None
    table = _table_on_copy(game_id, seed, moves, skip_channel)
    if table is None:
        return None
    try:
        with _on_commit_kept() as on_commit, batch_taken() as taken:
            result = change(table)
            table.finish()
    except NeedsLock:
        raise
    except EXPECTED:
        return None
    except Exception:
        log.warning("Card at table %s not played on the event loop", game_id, exc_info=True)
        return None
    if len(taken) != 1:
        return None
    return Prepared(table, result, taken[0], on_commit)


@contextmanager
def _on_commit_kept() -> Iterator[list[Callable[[], object]]]:
    """What the change asks to run on commit (``transaction.on_commit``), kept in a list.
    Django's own bookkeeping of an atomic block, on this thread's connection, without a
    transaction: the statement is sent elsewhere, and the block opens nothing."""
    wrapper = connections[DEFAULT_DB_ALIAS]  # once: each look through the proxy costs
    if wrapper.in_atomic_block:
        raise NeedsLock("inside a transaction")
    kept: list[Callable[[], object]] = []
    before = {name: _copied(getattr(wrapper, name)) for name in ATOMIC_STATE}
    wrapper.in_atomic_block, wrapper.run_on_commit = True, []
    try:
        yield kept
        kept.extend(call for _savepoints, call, _robust in wrapper.run_on_commit)
    finally:
        for name, value in before.items():  # as it was, whatever the change did
            setattr(wrapper, name, value)


def _copied(value):
    return list(value) if isinstance(value, list) else value


# What Django keeps of an atomic block on a connection wrapper (``_on_commit_kept``).
ATOMIC_STATE = (
    "in_atomic_block",
    "run_on_commit",
    "needs_rollback",
    "rollback_exc",
    "savepoint_ids",
    "atomic_blocks",
)


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
