"""Database work from the event loop of a socket."""

from channels.db import DatabaseSyncToAsync
from django.db import connection


def in_db_thread(function):
    """Run ``function`` in a worker thread with its own database connection.

    On PostgreSQL any pool thread will do, so one table can run while another waits on the
    database (row locks keep each game's moves in order). SQLite allows one writer at a
    time, so there every call shares one thread.
    """
    shared = connection.vendor != "postgresql"
    return DatabaseSyncToAsync(function, thread_sensitive=shared)
