"""Loading millions of rows fast, the way PostgreSQL's manual advises ("Populating a
Database"): the secondary indexes and unique constraints of the game tables set aside while
``COPY`` runs and built again after, in one pass each, two at a time; foreign-key triggers off
for the loading sessions (the seeder's rows are built consistent); ids handed out in ranges
that worker processes reserve under one lock.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, connections

GAME_TABLES = ("games_game", "games_seat", "games_hand", "games_trick", "games_play")
BUILD_MEMORY = "512MB"  # maintenance_work_mem of each index build


@dataclass(frozen=True)
class SetAside:
    """One index or unique constraint taken off a table, and the statement that puts it back."""

    table: str
    name: str
    is_constraint: bool
    restore: str

    @property
    def drop(self) -> str:
        if self.is_constraint:
            return f'ALTER TABLE "{self.table}" DROP CONSTRAINT "{self.name}"'
        return f'DROP INDEX "{self.name}"'


def secondary_indexes(tables=GAME_TABLES) -> list[SetAside]:
    """Every index of ``tables`` but their primary keys (which the foreign keys of other
    tables need), with how to build each again."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT t.relname, i.relname, c.conname IS NOT NULL,
                   COALESCE('ALTER TABLE "' || t.relname || '" ADD CONSTRAINT "' || c.conname
                            || '" ' || pg_get_constraintdef(c.oid),
                            pg_get_indexdef(i.oid))
            FROM pg_index x
            JOIN pg_class t ON t.oid = x.indrelid
            JOIN pg_class i ON i.oid = x.indexrelid
            LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.contype = 'u'
            WHERE t.relname = ANY(%s) AND NOT x.indisprimary
            ORDER BY t.relname, i.relname
            """,
            [list(tables)],
        )
        return [SetAside(*row) for row in cursor.fetchall()]


def _build(statement: str) -> None:
    """One index build on a connection of this thread's own."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SET maintenance_work_mem = '{BUILD_MEMORY}'")
            cursor.execute(statement)
    finally:
        connection.close()


class Rebuild:
    """The builds of the indexes set aside: started once the rows are in (the caller may go
    on with work that needs no game table's index meanwhile), waited for at the end."""

    def __init__(self, aside: list[SetAside], builders: int):
        self.aside = aside
        self.builders = builders
        self._pool: ThreadPoolExecutor | None = None
        self._futures: list = []

    def start(self) -> None:
        if self._pool is not None:
            return
        connections.close_all()  # the builders open their own
        self._pool = ThreadPoolExecutor(self.builders)
        # The biggest first, so the two builders finish together.
        order = sorted(self.aside, key=lambda index: index.table != "games_play")
        self._futures = [self._pool.submit(_build, index.restore) for index in order]

    def finish(self) -> None:
        """Start the builds if not yet, and wait for every one (raising the first failure)."""
        self.start()
        try:
            for future in self._futures:
                future.result()
        finally:
            self._pool.shutdown()


@contextmanager
def indexes_set_aside(tables=GAME_TABLES, builders: int = 2):
    """Drop the secondary indexes of ``tables`` for the block, build them again after it
    (also when it fails, so a broken load never leaves the schema without them); yields the
    ``Rebuild``, which the block may ``start`` early. PostgreSQL only."""
    aside = secondary_indexes(tables)
    with connection.cursor() as cursor:
        for index in aside:
            cursor.execute(index.drop)
    rebuild = Rebuild(aside, builders)
    try:
        yield rebuild
    finally:
        rebuild.finish()


def triggers_off(cursor) -> bool:
    """Skip the foreign-key triggers for this session's loading (needs a superuser; without
    one the checks run, slower but the same rows)."""
    try:
        cursor.execute("SAVEPOINT replica")
        cursor.execute("SET LOCAL session_replication_role = replica")
    except Exception:
        cursor.execute("ROLLBACK TO SAVEPOINT replica")
        return False
    cursor.execute("RELEASE SAVEPOINT replica")
    return True


class Reservations:
    """The next free id of each table, shared by the worker processes: a chunk of games
    reserves a range of hand, trick and play ids once it knows how many it needs."""

    def __init__(self, starts: dict[str, int], shared: bool):
        self.names = tuple(starts)
        if shared:
            self._values = {
                name: multiprocessing.Value("q", start) for name, start in starts.items()
            }
            self._lock = multiprocessing.Lock()
        else:
            self._values = dict(starts)
            self._lock = None

    def reserve(self, counts: dict[str, int]) -> dict[str, int]:
        """The first id of each range of ``counts``."""
        if self._lock is None:
            firsts = dict(self._values)
            for name, count in counts.items():
                self._values[name] += count
            return firsts
        with self._lock:
            firsts = {name: self._values[name].value for name in counts}
            for name, count in counts.items():
                self._values[name].value += count
        return firsts
