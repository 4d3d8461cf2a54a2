"""A few PostgreSQL connections of the event loop's own, for the one statement of a person's
card played on the loop (``games/realtime/loop_card.py``).

A card handed to a database thread waited twice for the loop and the thread to meet, and
once more for the GIL as its result came back (docs/benchmarks.md, issue 31). On the loop
the statement is sent and the board rendered while PostgreSQL runs it and flushes its
commit. Django's connections are synchronous, so these are psycopg's asynchronous ones,
opened with Django's own connection parameters (adapters and server options included) and
kept per event loop: at most ``COINS_LOOP_CONNECTIONS`` per server process, outside
Django's pool (PostgreSQL's ``max_connections`` must allow for them).

A connection that PostgreSQL dropped (its socket readable while idle) or that failed a
statement is closed, never used again: the caller's card then takes the database threads'
path, which reconnects as Django does.
"""

from __future__ import annotations

import asyncio
import weakref

import psycopg
from django.conf import settings
from django.db import connection as django_connection
from psycopg import sql
from psycopg.pq import ConnStatus

from coins_site.postgresql.pool_check import readable

CONNECT_SECONDS = 2  # a database that does not answer sends the card to the threads' path
SLOT_SECONDS = 1  # all connections busy this long: the card goes to the threads' path
STATEMENT_SECONDS = 10  # a statement unanswered this long (a dead link): its connection closed


class LoopConnections:
    """The loop's connections: at most ``size`` at once, idle ones kept for the next call."""

    def __init__(self, size: int):
        self.slots = asyncio.Semaphore(size)
        self.idle: list[psycopg.AsyncConnection] = []

    async def fetch_one(self, sql: str, params: list, prepare: bool) -> tuple | None:
        """Run one statement (autocommit: it commits on its own) and return its first row.
        With a connection free, the statement is written before the first pause: a caller
        that starts this as a task and yields once has it on its way (``loop_card``)."""
        async with asyncio.timeout(SLOT_SECONDS):  # nothing sent yet
            await self.slots.acquire()  # no pause when one is free (``wait_for`` paused)
        try:
            conn = await self._take()
            try:
                async with asyncio.timeout(STATEMENT_SECONDS), conn.cursor() as cursor:
                    await cursor.execute(sql, params, prepare=prepare or None)
                    row = await cursor.fetchone()
            except BaseException:
                close_now(conn)  # an error, a timeout or a cancellation: its state is unknown
                raise
            self.idle.append(conn)
            return row
        finally:
            self.slots.release()

    async def _take(self) -> psycopg.AsyncConnection:
        while self.idle:
            conn = self.idle.pop()
            if usable(conn):
                return conn
            close_now(conn)
        params = django_connection.get_connection_params()
        params.pop("cursor_factory", None)  # Django's synchronous cursor
        params.setdefault("connect_timeout", CONNECT_SECONDS)
        conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        role = django_connection.settings_dict.get("OPTIONS", {}).get("assume_role")
        if role:  # as Django sets it on its own connections
            await conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
        return conn

    def close(self) -> None:
        while self.idle:
            close_now(self.idle.pop())


def usable(conn: psycopg.AsyncConnection) -> bool:
    """Open, idle, and nothing to read: PostgreSQL writes a last message on a connection it
    drops (a restart, ``pg_terminate_backend``) before closing it."""
    if conn.closed or conn.pgconn.status != ConnStatus.OK:
        return False
    return not readable(conn.pgconn.socket)


def close_now(conn: psycopg.AsyncConnection) -> None:
    """Close without waiting (libpq's ``finish``: no round trip to wait for)."""
    if not conn.closed:
        conn.pgconn.finish()


_by_loop: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def loop_connections() -> LoopConnections | None:
    """The running loop's connections, or None where cards do not go on the loop (not
    PostgreSQL, or ``COINS_LOOP_CONNECTIONS`` is 0)."""
    size = settings.COINS_LOOP_CONNECTIONS
    if size <= 0 or django_connection.vendor != "postgresql":
        return None
    loop = asyncio.get_running_loop()
    kept = _by_loop.get(loop)
    if kept is None:
        kept = _by_loop[loop] = LoopConnections(size)
    return kept


def prepares() -> bool:
    """Whether statements are prepared (``DATABASE_PREPARED``), as on Django's connections."""
    options = django_connection.settings_dict.get("OPTIONS", {})
    return options.get("prepare_threshold") is not None


def close_loop_connections() -> None:
    """Close every loop's idle connections (a test's end: its event loop is gone, and an
    open connection keeps PostgreSQL from dropping the test database)."""
    for kept in list(_by_loop.values()):
        kept.close()
    _by_loop.clear()
