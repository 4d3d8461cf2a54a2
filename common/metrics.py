"""Optional query counting for benchmarks: off unless ``COINS_QUERY_LOG`` names a file.

When on, each counted block appends ``<kind> <statements> <round trips> <moves>`` to that
file, so a benchmark can report the database work the server spent per move. Statements
sent together in one round trip, joined with ";\n", count one each.
"""

from __future__ import annotations

import atexit
from contextlib import contextmanager

from django.conf import settings
from django.db import connection


@contextmanager
def counted(kind: str):
    """Count the queries run inside the block; the block may set ``box["moves"]``."""
    box = {"moves": 1}
    path = getattr(settings, "COINS_QUERY_LOG", "")
    if not path:
        yield box
        return
    statements = trips = 0

    def count(execute, sql, params, many, context):
        nonlocal statements, trips
        statements += sql.count(";\n") + 1
        trips += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield box
    statements_counted(kind, statements, trips, box["moves"])


def statements_counted(kind: str, statements: int, trips: int, moves: int = 1) -> None:
    """Log a block's count as ``counted`` does, for statements sent past Django's
    connection (``games/realtime/loop_db.py``)."""
    path = getattr(settings, "COINS_QUERY_LOG", "")
    if path:
        _log(path).write(f"{kind} {statements} {trips} {moves}\n")


_logs: dict = {}


def _log(path: str):
    """An append-only log file kept open (and flushed at exit) so counting stays cheap."""
    if path not in _logs:
        _logs[path] = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
        atexit.register(_logs[path].close)
    return _logs[path]
