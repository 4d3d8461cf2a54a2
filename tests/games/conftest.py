import os
import uuid

import pytest

from tests.redis_server import private_redis  # noqa: F401 (a fixture: Redis to restart)


@pytest.fixture(autouse=True)
def fresh_database_pool():
    """Give each test a fresh psycopg pool, and no connection left over in the thread where
    ``database_sync_to_async`` runs.

    Each async test runs on a new event loop with new executor threads, and a connection a
    socket task still held when its test ended would stay checked out of the shared pool;
    over a long run the pool would run dry. (A server has one loop with lasting threads.)
    That thread's connection outlives the test too: an earlier test that terminated every
    backend (tests/ops/test_pool.py) left it dead, and the pool only checks a connection
    it hands out, not one a thread kept.
    """
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    yield
    from django.db import connection

    if getattr(connection, "pool", None) is not None:
        connection.close_pool()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Give each test a channel layer of its own.

    channels-redis keeps per-channel asyncio locks on its layer object; each async test
    runs on a new event loop, and a lock left bound to an earlier test's loop fails the
    next receive ("bound to a different event loop"). A server has one loop for its life.
    """
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
async def table_runner():
    """A table runner on the test's event loop, as each server process runs one."""
    import asyncio

    from games.realtime.db_threads import lanes_idle
    from games.table.runner import run_tables_forever

    task = asyncio.create_task(run_tables_forever())
    yield task
    # Wait for the runner to stop while this loop still runs: a database thread in the
    # middle of its work may need the loop (a table's notice), and a thread left waiting
    # for a loop that no longer runs hung the test's end for good (seen under load).
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    await lanes_idle()  # and for its threads' last work (a notice scheduled on this loop)


@pytest.fixture(params=["memory", "redis"])
def shared_cache(request, settings):
    """The counters' cache: this process's memory, and Redis (as in production, where every
    server process counts in it) when the tests have one."""
    if request.param == "redis":
        if not os.environ.get("REDIS_URL"):
            pytest.skip("no Redis: REDIS_URL is not set")
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": os.environ["REDIS_URL"],
                "KEY_PREFIX": f"test-reactions-{uuid.uuid4().hex}",  # no run meets another
            }
        }
    return request.param
