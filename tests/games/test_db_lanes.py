"""Database work in lanes: work nobody waits for at a table (ratings, tournaments, presence
readings) can fill only its own threads, never the ones a person's card needs."""

import asyncio
import threading

import pytest
from django.conf import settings
from django.db import connection

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
