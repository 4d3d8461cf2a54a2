"""A game's rating reads and writes, as statements written once (``common.kept_rows``).

A ratings lane rates every finished game, and building each of its small ORM queries (the
queue's head, the game, whether it was rated, the players' ratings, the events' insert, the
boards) cost more CPU than PostgreSQL took to answer it: a rating took 3.4 ms of CPU in one
quiet process and 7 ms in a busy server, 6.6% of the server's CPU in a 100-table run
(issue 31). Each statement here gives what its ORM query gave; ``tests/ratings/test_rows.py``
holds them to it.
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from common.kept_rows import (
    column,
    column_list,
    row_exists,
    row_instance,
    rows_insert,
    table_name,
)
from games.models import Game
from games.table.loading import game_row

from .models import Leaderboard, PlayerRating, RatingEvent, RatingQueue


def _lock(skip_locked: bool = False) -> str:
    """The locking clause where the database has one (SQLite has one writer at a time)."""
    if not connection.features.has_select_for_update:
        return ""
    return " FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE"


def queue_head(max_attempts: int, count: int = 2) -> list[tuple[int, int]]:
    """The first ``count`` queued games (id, attempts) in the order they ended, locked, skipping
    those another lane holds and those that failed ``max_attempts`` times."""
    with connection.cursor() as cursor:
        cursor.execute(_queue_head_statement(connection.vendor), [max_attempts, count])
        return [(game_id, attempts) for game_id, attempts in cursor.fetchall()]


@cache
def _queue_head_statement(vendor: str) -> str:
    game, attempts = column(RatingQueue, "game"), column(RatingQueue, "attempts")
    order = f"{column(RatingQueue, 'finished_at')}, {game}"
    return (
        f"SELECT {game}, {attempts} FROM {table_name(RatingQueue)} WHERE {attempts} < %s"
        f" ORDER BY {order} LIMIT %s{_lock(skip_locked=True)}"
    )


def queue_drop(game_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_queue_drop_statement(connection.vendor), [game_id])


@cache
def _queue_drop_statement(vendor: str) -> str:
    return f"DELETE FROM {table_name(RatingQueue)} WHERE {column(RatingQueue, 'game')} = %s"


def game_locked(game_id: int) -> Game:
    """The game's row, locked for the rest of the transaction (``Game.DoesNotExist`` if gone):
    the move's own kept statement (``games.table.loading.game_row``)."""
    game = game_row(game_id, _lock())
    if game is None:
        raise Game.DoesNotExist(f"No game {game_id}")
    return game


def game_rated(game_id: int) -> bool:
    """Whether the game has rating events already (a statement of its own: one that waited for
    the game's lock sees a rating committed meanwhile only in a new statement)."""
    return row_exists(RatingEvent, game_id=game_id)


def ratings_locked(users: set[int], bots: set[str]) -> list[PlayerRating]:
    """The rating rows of these people and bot levels, locked in id order (two games rated at
    once never wait on each other in a circle)."""
    return ratings_of(users, bots, locked=True)


def ratings_of(users: set[int], bots: set[str], locked: bool = False) -> list[PlayerRating]:
    """The rating rows of these people and bot levels, in id order (``locked``: held until
    the transaction ends)."""
    users, bots = sorted(users), sorted(bots)
    statement = _ratings_statement(connection.vendor, len(users), len(bots), locked)
    with connection.cursor() as cursor:
        cursor.execute(statement, users + bots)
        rows = cursor.fetchall()
    return [row_instance(PlayerRating, connection, row) for row in rows]


@cache
def _ratings_statement(vendor: str, users: int, bots: int, locked: bool) -> str:
    which = []
    if users:
        which.append(f"{column(PlayerRating, 'user')} IN ({', '.join(['%s'] * users)})")
    if bots:
        which.append(f"{column(PlayerRating, 'bot')} IN ({', '.join(['%s'] * bots)})")
    return (
        f"SELECT {column_list(PlayerRating)} FROM {table_name(PlayerRating)}"
        f" WHERE {' OR '.join(which) or '1 = 0'}"
        f" ORDER BY {column(PlayerRating, 'pk')}{_lock() if locked else ''}"
    )


def events_insert(events: list[RatingEvent]) -> None:
    """Insert the game's events as ``bulk_create`` would: each field's value made ready as the
    ORM makes it (``created_at`` stamped), each event given its new id."""
    rows_insert(events)


def boards_kept() -> list[Leaderboard]:
    """The boards whose standings are kept: every board not closed, in the boards' order."""
    with connection.cursor() as cursor:
        cursor.execute(_boards_statement(connection.vendor))
        rows = cursor.fetchall()
    return [row_instance(Leaderboard, connection, row) for row in rows]


@cache
def _boards_statement(vendor: str) -> str:
    return (
        f"SELECT {column_list(Leaderboard)} FROM {table_name(Leaderboard)}"
        f" WHERE {column(Leaderboard, 'closed_at')} IS NULL ORDER BY {column(Leaderboard, 'name')}"
    )


def game_rating_moves(game_id: int) -> list[tuple]:
    """Each rated seat's (seat, mu and sigma before, mu and sigma after) in the game: every
    finished game's last board asks, before its rating (then there are none)."""
    with connection.cursor() as cursor:
        cursor.execute(_moves_statement(connection.vendor), [game_id])
        return cursor.fetchall()


@cache
def _moves_statement(vendor: str) -> str:
    names = ("seat", "mu_before", "sigma_before", "mu_after", "sigma_after")
    return (
        f"SELECT {', '.join(column(RatingEvent, name) for name in names)}"
        f" FROM {table_name(RatingEvent)} WHERE {column(RatingEvent, 'game')} = %s"
    )
