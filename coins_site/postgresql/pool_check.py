"""The connection pool's check of a connection as it hands it out, without a round trip.

After PostgreSQL drops a connection (a restart, a failover, ``pg_terminate_backend``) the
server writes a last message on it and closes it: the connection's socket turns readable.
A healthy idle connection has nothing to read. So the check asks the kernel (a poll of the
socket, no wait) and runs psycopg's own check, an empty query to the server, only when
something is there. Every move checks a connection out once or twice: the empty query cost
a round trip each time.
"""

from __future__ import annotations

import select

from psycopg import OperationalError
from psycopg.pq import ConnStatus
from psycopg_pool import ConnectionPool


def connection_alive(connection) -> None:
    """Raise if ``connection`` is broken (the pool then replaces it); cheap when it is not."""
    if connection.closed or connection.pgconn.status != ConnStatus.OK:
        raise OperationalError("the connection is closed")
    if readable(connection.pgconn.socket):  # the server said something while it was idle
        ConnectionPool.check_connection(connection)


def readable(fd: int) -> bool:
    """Whether ``fd`` has something to read, without waiting. ``poll``, not ``select``:
    ``select`` refuses a descriptor above 1023, and a server holding a thousand sockets
    opens its database connections above that (every check then failed)."""
    watch = select.poll()
    watch.register(fd, select.POLLIN)
    return bool(watch.poll(0))
