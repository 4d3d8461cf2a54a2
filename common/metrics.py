"""Optional query counting for benchmarks: off unless ``COINS_QUERY_LOG`` names a file.

When on, each counted block appends ``<kind> <statements> <round trips> <moves>`` to that
file, so a benchmark can report the database work the server spent per move. Statements
sent together in one round trip, joined with ";\n", count one each. ``Laps`` appends where
a card's time went (``<kind>`` and, for each lap, its wall and CPU milliseconds).
"""

from __future__ import annotations

import atexit
import time
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


class Laps:
    """Wall time between marks, and the thread's CPU time over the same laps, written to the
    query log as one line: where a card's time goes, for the table benchmark. A card's
    statement is with PostgreSQL while its board is rendered; the laps tell how long each
    part took and whether the loop was working or waiting meanwhile. Only with
    ``COINS_CARD_LAPS`` on too (``bench_tables --laps``): each mark reads the thread's CPU
    clock, a system call, and a run's figures are otherwise to be the site's. Off, a lap
    costs two settings reads."""

    __slots__ = ("kind", "marks", "path")

    def __init__(self, kind: str):
        self.kind = kind
        on = getattr(settings, "COINS_CARD_LAPS", False)
        self.path = getattr(settings, "COINS_QUERY_LOG", "") if on else ""
        self.marks = [(time.perf_counter(), time.thread_time())] if self.path else None

    def mark(self) -> None:
        if self.marks is not None:
            self.marks.append((time.perf_counter(), time.thread_time()))

    def log(self) -> None:
        """Append ``<kind>`` and each lap's wall then CPU time, in milliseconds."""
        if self.marks is None:
            return
        laps = []
        for (wall, cpu), (wall_after, cpu_after) in zip(self.marks, self.marks[1:], strict=False):
            laps += [(wall_after - wall) * 1000, (cpu_after - cpu) * 1000]
        _log(self.path).write(self.kind + "".join(f" {lap:.3f}" for lap in laps) + "\n")


_logs: dict = {}


def _log(path: str):
    """An append-only log file kept open (and flushed at exit) so counting stays cheap."""
    if path not in _logs:
        _logs[path] = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115
        atexit.register(_logs[path].close)
    return _logs[path]
