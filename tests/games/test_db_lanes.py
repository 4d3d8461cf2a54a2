"""Database work in lanes: work nobody waits for at a table (ratings, tournaments, presence
readings) can fill only its own threads, never the ones a person's card needs."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress

import psycopg
import pytest
from django.conf import settings
from django.db import DatabaseError, connection

from games.realtime.db_threads import (
    BACKGROUND,
    PEOPLE,
    in_background_thread,
    in_db_thread,
    lane_executor,
)

pytestmark = pytest.mark.django_db(transaction=True)


def lane_thread() -> str:
    return threading.current_thread().name


def test_each_lane_has_its_own_threads_of_the_configured_size():
    people, background = lane_executor(PEOPLE), lane_executor(BACKGROUND)
    assert people is not background
    assert people._max_workers == settings.COINS_DB_THREADS[PEOPLE]
    assert background._max_workers == settings.COINS_DB_THREADS[BACKGROUND]
    assert lane_executor(PEOPLE) is people  # made once per process


async def test_a_full_background_lane_does_not_hold_up_a_persons_card():
    released = threading.Event()
    started = threading.Semaphore(0)

    def long_rating():
        started.release()
        released.wait(timeout=30)
        return lane_thread()

    postgres = connection.vendor == "postgresql"
    blockers = settings.COINS_DB_THREADS[BACKGROUND] + 2 if postgres else 1
    jobs = [asyncio.ensure_future(in_background_thread(long_rating)()) for _ in range(blockers)]
    try:
        if not postgres:
            # SQLite has one writer: every lane shares one thread, so calls take turns.
            released.set()
            assert await in_db_thread(lane_thread)() == (await jobs[0])
            return
        for _ in range(settings.COINS_DB_THREADS[BACKGROUND]):  # every background thread busy
            assert await asyncio.to_thread(started.acquire, True, 30)
        mover = await asyncio.wait_for(in_db_thread(lane_thread)(), timeout=30)
        assert mover.startswith("db-people")
        assert not released.is_set() and not any(job.done() for job in jobs)
    finally:
        released.set()
        done = await asyncio.gather(*jobs)
    assert all(name.startswith("db-background") for name in done)  # the queued ones ran too


def test_a_function_is_wrapped_once_per_lane_and_a_method_each_time():
    """A card's call needs no new wrapper; a socket's bound method is never kept by a cache
    (it would keep the socket alive); new lanes get new wrappers."""
    from games.realtime.db_threads import close_lanes

    if connection.vendor != "postgresql":
        assert in_db_thread(lane_thread) is not in_db_thread(lane_thread)  # one thread anyway
        return
    people = in_db_thread(lane_thread)
    assert in_db_thread(lane_thread) is people
    assert in_background_thread(lane_thread) is not people
    method = threading.Event().is_set
    assert in_db_thread(method) is not in_db_thread(method)
    close_lanes()
    assert in_db_thread(lane_thread) is not people
    assert in_db_thread(lane_thread)._executor is lane_executor(PEOPLE)


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def had_no_connection() -> bool:
    return connection.connection is None


def met_an_error() -> None:
    with connection.cursor() as cursor, suppress(DatabaseError):
        cursor.execute("SELECT * FROM no_such_table")  # the caller carries on


@pytest.fixture
def one_thread():
    """A lane of one thread, so that every call is known to run in the same thread."""
    from asgiref.sync import SyncToAsync

    from games.realtime import db_threads
    from games.realtime.db_threads import LaneCall

    if connection.vendor != "postgresql":
        pytest.skip("lanes of their own threads are PostgreSQL's")
    executor = db_threads._lanes["one"] = ThreadPoolExecutor(max_workers=1)
    assert isinstance(in_db_thread(lane_thread), LaneCall) and issubclass(LaneCall, SyncToAsync)
    yield lambda function: LaneCall(function, thread_sensitive=False, executor=executor)()
    if db_threads._lanes.get("one") is not executor:  # else close_lanes ends it, as any lane
        executor.shutdown(wait=True)


async def test_a_call_that_comes_late_to_a_closed_lane_hands_its_connection_back(one_thread):
    """``close_lanes`` hands back what each thread holds, but a call that came late may run
    on a thread that then ends: its connection must not stay checked out of the pool."""
    from games.realtime import db_threads

    await one_thread(backend_pid)
    assert not await one_thread(had_no_connection)
    db_threads._lanes.pop("one")  # as close_lanes does first
    await one_thread(backend_pid)
    assert await one_thread(had_no_connection)


async def test_a_lane_thread_keeps_its_connection_from_call_to_call(one_thread):
    """Handing the connection back to the pool after every call, and taking one again at the
    next, cost a server 90 µs of CPU per call."""
    first = await one_thread(backend_pid)
    assert not await one_thread(had_no_connection)
    assert [await one_thread(backend_pid) for _ in range(5)] == [first] * 5


async def test_a_kept_connection_postgresql_dropped_is_replaced_before_the_call(one_thread):
    """A restart of PostgreSQL (or ``pg_terminate_backend``) kills the kept connection while
    its thread is idle: the next call still works, on a new connection."""
    dropped = await one_thread(backend_pid)
    params = connection.get_connection_params()
    for key in ("pool", "cursor_factory", "context"):
        params.pop(key, None)
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [dropped])
        gone = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
        for _ in range(600):  # until PostgreSQL has ended it (it is usually at once)
            if not admin.execute(gone, [dropped]).fetchone()[0]:
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail("the backend was not terminated")
    assert await one_thread(backend_pid) != dropped


async def test_a_connection_that_met_an_error_goes_back_to_the_pool(one_thread):
    await one_thread(backend_pid)
    await one_thread(met_an_error)
    assert await one_thread(had_no_connection)
    await one_thread(backend_pid)
    assert not await one_thread(had_no_connection)  # the new one is kept again
