"""Database work from an event loop, in two lanes of threads.

What people wait for at a table runs in the people's lane: a socket's own work (a person's
card, the boards it sends, its opening and closing) and the table runner's cards (bots that
pause, clocks). Work nobody waits for runs in a lane of its own: rating finished games, the
tournaments' ticks, other apps' idle work, presence readings and refreshes. Both lanes
shared the event loop's default pool of ``cpu_count + 4`` threads before, and under load a
person's card waited there behind ratings and presence readings (issue 31: 100 ms at p90
with 100 tables on one process). Background work can now fill only its own threads.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier
from types import FunctionType

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import connection, connections

PEOPLE, BACKGROUND = "people", "background"
_lanes: dict[str, ThreadPoolExecutor] = {}


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
    ``async_to_sync``), and one scheduled on a loop that then closed was never run."""
    loop = asyncio.get_running_loop()
    for executor in list(_lanes.values()):
        threads = len(executor._threads)
        if threads:
            meet = Barrier(threads)  # one call per thread: each finished what it had first
            calls = [loop.run_in_executor(executor, meet.wait, 10) for _ in range(threads)]
            await asyncio.gather(*calls, return_exceptions=True)


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
        return DatabaseSyncToAsync(function, thread_sensitive=False, executor=lane_executor(lane))
    wrapped = _wrapped.get((function, lane))
    if wrapped is None:
        wrapped = DatabaseSyncToAsync(
            function, thread_sensitive=False, executor=lane_executor(lane)
        )
        _wrapped[(function, lane)] = wrapped
    return wrapped


_wrapped: dict[tuple, DatabaseSyncToAsync] = {}  # (function, lane) -> its wrapper


def in_background_thread(function):
    """``in_db_thread`` in the background lane: work nobody is waiting on at a table."""
    return in_db_thread(function, BACKGROUND)
