"""Database work from an event loop, in two lanes of threads.

What people wait for at a table runs in the people's lane: a socket's own work (a person's
card, the boards it sends, its opening and closing) and the table runner's cards (bots that
pause, clocks). Work nobody waits for runs in a lane of its own: rating finished games, the
tournaments' ticks, other apps' idle work, presence readings and refreshes. Both lanes
shared the event loop's default pool of ``cpu_count + 4`` threads before, and under load a
person's card waited there behind ratings and presence readings (issue 31: 100 ms at p90
with 100 tables on one process). Background work can now fill only its own threads.

A lane's thread keeps its database connection from one call to the next. Channels' own
wrapper hands it back to the pool after every call and takes one again at the next: 90 µs
of CPU per call, and 9% of a busy server's CPU per person's card in ``bench_tables``
(docs/benchmarks.md). Before each call the connection gets the pool's own cheap check (a
dead one, after a restart of PostgreSQL, is replaced before the call sees it); after a call
that met a database error, or after ``LANE_CONNECTION_SECONDS``, it goes back to the pool.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from types import FunctionType

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connection, connections

from coins_site.postgresql.pool_check import connection_alive

PEOPLE, BACKGROUND = "people", "background"
LANE_CONNECTION_SECONDS = 300  # then a lane's connection goes back to the pool (its recycling)
_lanes: dict[str, ThreadPoolExecutor] = {}
_taken = threading.local()  # a lane thread's connection, and when it took it from the pool


class LaneCall(SyncToAsync):
    """A call in a lane's thread, its database connection kept for the thread's next call."""

    def thread_handler(self, loop, *args, **kwargs):
        connection_fit_or_closed()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            # A lane being closed (``close_lanes``) may still run a call that came late, in
            # a thread that then ends: its connection goes back, or it would stay checked
            # out of the pool for good.
            connection_kept_or_handed_back(keep=self._executor in _lanes.values())


def connection_fit_or_closed() -> None:
    """Close the thread's kept connection if PostgreSQL dropped it (the call then takes a
    fresh one from the pool), with the pool's own check: a poll of the socket, no query."""
    raw = connection.connection
    if raw is None:
        return
    try:
        connection_alive(raw)
    except Exception:  # as the pool does: a connection its check refuses is not used
        connection.close()


def connection_kept_or_handed_back(keep: bool = True) -> None:
    """Keep the thread's connection for its next call, unless the call met a database error,
    left a transaction open, or the connection has been out of the pool long enough."""
    raw = connection.connection
    if raw is None:
        return
    now = time.monotonic()
    if getattr(_taken, "raw", None) is not raw:
        _taken.raw, _taken.at = raw, now
    spoiled = connection.errors_occurred or connection.in_atomic_block or not raw.autocommit
    if not keep or spoiled or now - _taken.at > LANE_CONNECTION_SECONDS:
        connection.close()
        _taken.raw = None


def lane_executor(lane: str) -> ThreadPoolExecutor:
    """The lane's threads (made on first use: a process that serves no socket makes none)."""
    executor = _lanes.get(lane)
    if executor is None:
        size = settings.COINS_DB_THREADS[lane]
        executor = _lanes.setdefault(
            lane, ThreadPoolExecutor(max_workers=size, thread_name_prefix=f"db-{lane}")
        )
    return executor


def close_lanes() -> None:
    """Stop every lane's threads once their work is done (a test's end: the next test's
    event loop starts with new threads, as it would with the loop's own pool), each thread
    first handing its database connection back: a pooled connection kept by a thread that
    ended stays open, and PostgreSQL then refused to drop the test database."""
    _wrapped.clear()  # their wrappers name the lanes' old threads
    while _lanes:
        executor = _lanes.popitem()[1]
        threads = len(executor._threads)
        if threads:
            meet = Barrier(threads)  # one call per thread: none can take two
            for future in [executor.submit(_hand_back, meet) for _ in range(threads)]:
                future.exception()
        executor.shutdown(wait=True)


async def lanes_idle() -> None:
    """Return once every lane's threads have finished the work they had, this event loop
    running meanwhile: a thread's work may need it (a table's notice, sent through
    ``async_to_sync``), and one scheduled on a loop that then closed was never run.

    One call of ours per thread the lane may have, all meeting at a barrier: the executor
    starts a new thread for a call when none is idle, so counting only the threads alive
    let fresh threads meet while a busy one still worked (a test's end then hung on it).
    A barrier that times out (a slow last call) is tried again."""
    loop = asyncio.get_running_loop()
    for executor in list(_lanes.values()):
        size = executor._max_workers
        while True:
            meet = Barrier(size)
            calls = [loop.run_in_executor(executor, meet.wait, 10) for _ in range(size)]
            met = await asyncio.gather(*calls, return_exceptions=True)
            if not any(isinstance(result, BaseException) for result in met):
                break


def _hand_back(meet: Barrier) -> None:
    try:
        meet.wait(timeout=10)
    finally:
        connections.close_all()


def in_db_thread(function, lane: str = PEOPLE):
    """Run ``function`` in a worker thread of ``lane`` with its own database connection.

    On PostgreSQL any thread of the lane will do, so one table can run while another waits
    on the database (row locks keep each game's moves in order). SQLite allows one writer at
    a time, so there every call of every lane shares one thread.

    A module's function is wrapped once per lane (a wrapper holds no state between calls;
    making one for every card was 0.9% of a busy server's Python time); a bound method is
    wrapped each time, so that no socket is kept alive by a cache.
    """
    if connection.vendor != "postgresql":
        return DatabaseSyncToAsync(function, thread_sensitive=True)
    if not isinstance(function, FunctionType):
        return LaneCall(function, thread_sensitive=False, executor=lane_executor(lane))
    wrapped = _wrapped.get((function, lane))
    if wrapped is None:
        wrapped = LaneCall(function, thread_sensitive=False, executor=lane_executor(lane))
        _wrapped[(function, lane)] = wrapped
    return wrapped


_wrapped: dict[tuple, LaneCall] = {}  # (function, lane) -> its wrapper


def in_background_thread(function):
    """``in_db_thread`` in the background lane: work nobody is waiting on at a table."""
    return in_db_thread(function, BACKGROUND)
