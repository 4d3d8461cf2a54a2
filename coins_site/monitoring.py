"""What an operator watches: Prometheus metrics of this server process.

Each Daphne (and each ``run_tables``) keeps its own figures; scrape every process (see
docs/operations.md). The objects below are the site's whole vocabulary of metrics: code that
counts something imports the function that names it, never prometheus-client itself.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

MOVES = Counter("coins_moves", "Cards played", ["by"])  # by: person, bot, auto
SOCKETS = Gauge("coins_sockets", "Table sockets open in this process", ["viewer"])
RUNNER_LAG = Histogram(
    "coins_runner_lag_seconds",
    "How long after it fell due a runner served a table's work",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)
SEARCH_QUEUE = Gauge("coins_search_queue", "Searches asked for and not yet answered", ["lane"])
THROTTLED = Counter("coins_throttled", "Requests and messages refused by a limit", ["limit"])


def moves_played(by: str, count: int = 1) -> None:
    """``count`` cards played by a ``person``, a ``bot``, or for an absent person (``auto``)."""
    if count:
        MOVES.labels(by=by).inc(count)


def socket_opened(viewer: str) -> None:
    """A table socket opened: ``viewer`` is ``player``, ``member`` or ``anonymous``."""
    SOCKETS.labels(viewer=viewer).inc()


def socket_closed(viewer: str) -> None:
    SOCKETS.labels(viewer=viewer).dec()


def runner_lag(seconds: float) -> None:
    RUNNER_LAG.observe(max(0.0, seconds))


def search_queue(lane: str, change: int) -> None:
    """A search asked for (+1) or answered (-1) in ``lane``: ``bots`` or ``hints``."""
    SEARCH_QUEUE.labels(lane=lane).inc(change)


def throttled(limit: str) -> None:
    """A limit refused something: ``limit`` names it (``login``, ``signup``, ``sockets``...)."""
    THROTTLED.labels(limit=limit).inc()
