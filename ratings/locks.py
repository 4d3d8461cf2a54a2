"""The advisory lock that keeps rating, recompute and the rebuilding of a board's standings
apart: games are rated side by side under it shared; a recompute's swap and a rebuild hold it
exclusive."""

from __future__ import annotations

from django.db import connection

RATING_LOCK = 0x436F696E  # "Coin": the advisory lock that keeps rating and recompute apart


def rating_lock_take(*, exclusive: bool) -> None:
    """Hold the rating lock until the transaction ends: shared by games being rated (they run
    side by side), exclusive for a recompute's swap (no game is rated while the rebuilt
    ratings take the place of the old). SQLite has one writer at a time already."""
    advisory_lock("pg_advisory_xact_lock" if exclusive else "pg_advisory_xact_lock_shared")


def advisory_lock(function: str, key: int = RATING_LOCK) -> bool:
    """Call PostgreSQL's advisory lock ``function`` on ``key``; whether it was taken (the
    waiting ones always are). Elsewhere (SQLite: one writer at a time) always True."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s)", [key])
        return cursor.fetchone()[0] is not False
