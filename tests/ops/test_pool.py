"""After PostgreSQL drops the site's connections, no request answers 500: the pool checks
each connection as it hands it out (PostgreSQL only)."""

import os
import time

import psycopg
import pytest
from django.db import connection
from django.test import Client
from psycopg_pool import ConnectionPool

from coins_site.postgresql.pool_check import connection_alive

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the connection pool is PostgreSQL's"
    ),
]

PAGE = "/games/"  # the lobby: reads the database on every request


def terminate_the_pools_backends() -> int:
    """``pg_terminate_backend`` every other connection to the test database, as a server
    restart or an operator would; wait until those are gone. Only those: a connection that
    opens meanwhile (another process of the suite still winding down) is none of the pool's,
    and once made this wait for it until it timed out."""
    params = connection.get_connection_params()
    params.pop("pool", None)
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as admin:
        others = "datname = current_database() AND pid <> pg_backend_pid()"
        kill = (
            "SELECT array_agg(pid) FILTER (WHERE pg_terminate_backend(pid))"
            f" FROM pg_stat_activity WHERE {others}"
        )
        killed = admin.execute(kill).fetchone()[0] or []
        still = "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)"
        deadline = time.monotonic() + 30
        while admin.execute(still, [killed]).fetchone()[0]:
            assert time.monotonic() < deadline, "backends still there"
            time.sleep(0.05)
    return len(killed)


def served(client: Client) -> int:
    """A request as a server serves it: the connection goes back to the pool at its end
    (the test client itself keeps it for the next request)."""
    status = client.get(PAGE).status_code
    connection.close()
    return status


def statuses_after_termination() -> list[int]:
    """Fill the pool through real requests, terminate its connections, request again."""
    connection.close()
    connection.close_pool()  # a pool made with the settings as they are now
    client = Client(HTTP_HOST="localhost", raise_request_exception=False)
    assert [served(client) for _ in range(3)] == [200] * 3
    pool = connection.pool
    deadline = time.monotonic() + 30
    while pool.get_stats()["pool_available"] < pool.min_size:  # min_size kept open
        assert time.monotonic() < deadline, pool.get_stats()
        time.sleep(0.05)
    assert terminate_the_pools_backends() >= pool.min_size
    return [served(client) for _ in range(2 * pool.min_size + 2)]


def test_no_request_answers_500_after_the_connections_were_terminated():
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]  # the site's setting, pool check on
    assert connection.pool._check is connection_alive  # ours, not an empty query each time
    assert statuses_after_termination() == [200] * 6


def test_without_the_check_the_first_request_on_a_dead_connection_fails():
    """The same scenario with the pool's check off (what the site had): proof the test
    above would see the failure."""
    connection.settings_dict["CONN_HEALTH_CHECKS"] = False
    try:
        assert 500 in statuses_after_termination()
    finally:
        connection.settings_dict["CONN_HEALTH_CHECKS"] = True
        connection.close_pool()


def test_a_healthy_connection_is_checked_without_a_query(monkeypatch):
    """The check asks the kernel, not the server: an idle connection that is fine costs no
    round trip (psycopg's empty-query check is never run for it)."""
    queried = []
    monkeypatch.setattr(ConnectionPool, "check_connection", lambda conn: queried.append(conn))
    with connection.cursor() as cursor:  # a pooled connection, used, then idle
        cursor.execute("SELECT 1")
    for _ in range(100):
        connection_alive(connection.connection)
    assert queried == []
    connection.close()


def test_a_terminated_connection_fails_the_check():
    """A backend terminated while its connection idled in the pool: the check sees the
    socket readable, asks the server, and raises (the pool then opens a new one)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    raw = connection.connection
    terminate_the_pools_backends()
    with pytest.raises(psycopg.OperationalError):
        connection_alive(raw)
    connection.close()
    connection.close_pool()


@pytest.fixture
def descriptors_above_1023():
    """File descriptors held open until the next one is above 1023, as in a server holding
    a thousand sockets (``select`` refuses such a descriptor: every check failed there)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip("this process may not open 1200 files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    held = []
    try:
        while not held or held[-1] < 1030:
            held.append(os.open(os.devnull, os.O_RDONLY))
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.usefixtures("descriptors_above_1023")
def test_the_check_works_on_a_socket_above_1023(monkeypatch):
    params = connection.get_connection_params()
    for key in ("pool", "cursor_factory", "context"):
        params.pop(key, None)
    with psycopg.connect(**params, autocommit=True) as raw:
        assert raw.pgconn.socket > 1023
        queried = []
        monkeypatch.setattr(ConnectionPool, "check_connection", queried.append)
        connection_alive(raw)  # healthy: no error, no query
        assert queried == []
        monkeypatch.undo()
        terminate_the_pools_backends()  # every connection to the test database
        with pytest.raises(psycopg.OperationalError):
            connection_alive(raw)
    connection.close()
    connection.close_pool()
