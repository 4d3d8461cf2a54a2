"""The table runner's sleep: until the next game this process scheduled is due, or the poll.

A runner that looked at the schedule every 0.1 s made ten looks a second per process, busy or
not (603 in a minute in issue 31's measure). It then slept until the earliest ``due_at`` of
the whole schedule, read before every nap: every process's runner woke for every game due on
any process and they raced for it. The loser looked for nothing, or served a game whose last
card another process had played, rebuilding it from its rows while that process's copy went
stale (its person's next card rebuilt it again).

Now each runner sleeps until the earliest due time this process scheduled (``wake_for``,
called on commit by the code that sets ``due_at``, also wakes it if it sleeps past it), with
no statement before its nap. It still looks at the whole schedule every ``COINS_RUNNER_POLL``
seconds at most: a game scheduled by a process that died (or runs no runner) is served then.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import math
import threading
import time
from datetime import datetime

from django.conf import settings

MIN_NAP = 0.01  # seconds: a game due but locked by another runner is looked at again soon
KEPT_AT_MOST = 100_000  # due times this process keeps; past that, the poll finds the games

_loop: asyncio.AbstractEventLoop | None = None
_bell: asyncio.Event | None = None
_sleeps_until = 0.0  # epoch seconds; 0 while the runner works (it looks again anyway)
_scheduled: list[tuple[float, float]] = []  # a heap: (due, when it was committed), epoch s
_scheduled_lock = threading.Lock()  # ``wake_for`` runs in the database threads
_looked_at = 0.0  # when the runner last began a look at the schedule (a claim)


def wake_for(due_at: datetime | None) -> None:
    """A game this process committed is due at ``due_at``: the runner serves it then, and
    is woken now if it sleeps past it (from any thread)."""
    if due_at is None:
        return
    moment, now = due_at.timestamp(), time.time()
    with _scheduled_lock:
        # Times a poll has passed since are forgotten: any runner's look found the game then.
        # (A process whose runner does not run keeps no more than that.)
        while _scheduled and _scheduled[0][0] < now - settings.COINS_RUNNER_POLL:
            heapq.heappop(_scheduled)
        if len(_scheduled) < KEPT_AT_MOST:
            heapq.heappush(_scheduled, (moment, now))
    if _loop is None or moment >= _sleeps_until:
        return
    with contextlib.suppress(RuntimeError):  # the loop has closed (the process is ending)
        _loop.call_soon_threadsafe(_bell.set)


def looking() -> None:
    """The runner is about to claim a game: what was committed due by now, it will find."""
    global _looked_at
    _looked_at = time.time()


def going_to_sleep() -> None:
    """Before the runner works out its nap: a game scheduled from now on wakes it (until it
    knows how long it sleeps, it may sleep for ever as far as wakers know)."""
    global _loop, _bell, _sleeps_until
    loop = asyncio.get_running_loop()
    if loop is not _loop:  # an event belongs to one loop (each test has its own)
        _loop, _bell = loop, asyncio.Event()
    _sleeps_until = math.inf
    _bell.clear()


def seconds_to_next(poll: float) -> float:
    """How long the runner may nap: until the earliest due time this process scheduled that
    its last look did not cover, at most ``poll``. A time the look covered (due by then,
    committed before it) is forgotten: that look served the game, or another runner held it.
    One committed after the look began may have been missed: looked at again at once."""
    now = time.time()
    with _scheduled_lock:
        while _scheduled and _scheduled[0][0] <= _looked_at and _scheduled[0][1] < _looked_at:
            heapq.heappop(_scheduled)
        earliest = _scheduled[0][0] if _scheduled else math.inf
    return min(poll, earliest - now)


async def sleep(seconds: float) -> None:
    """Sleep ``seconds`` (at least ``MIN_NAP``) or until woken, whichever comes first."""
    global _sleeps_until
    seconds = max(MIN_NAP, seconds)
    _sleeps_until = time.time() + seconds
    try:
        await asyncio.wait_for(_bell.wait(), seconds)
    except TimeoutError:
        pass
    finally:
        _sleeps_until = 0.0
