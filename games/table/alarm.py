"""The table runner's sleep: until the next game is due, woken sooner by this process.

A runner that looked at the schedule every 0.1 s made ten looks a second per process, busy or
not (603 in a minute in issue 31's measure). Now it sleeps until the earliest ``due_at`` the
schedule holds, and this process wakes it when it commits a game due sooner (a bot's card
after its pause, a finished game to rate): ``wake_for``, called on commit by the code that
sets ``due_at``. Another process's schedules are served by that process's runner; this one
still looks every ``COINS_RUNNER_POLL`` seconds at most, in case that process died.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from datetime import datetime

MIN_NAP = 0.01  # seconds: a game due but locked by another runner is looked at again soon

_loop: asyncio.AbstractEventLoop | None = None
_bell: asyncio.Event | None = None
_sleeps_until = 0.0  # epoch seconds; 0 while the runner works (it looks again anyway)


def wake_for(due_at: datetime | None) -> None:
    """Wake this process's runner if it sleeps past ``due_at`` (from any thread)."""
    if due_at is None or _loop is None or due_at.timestamp() >= _sleeps_until:
        return
    with contextlib.suppress(RuntimeError):  # the loop has closed (the process is ending)
        _loop.call_soon_threadsafe(_bell.set)


def going_to_sleep() -> None:
    """Before reading the schedule for a nap: a game scheduled from now on wakes the runner
    (until it knows how long it sleeps, it may sleep for ever as far as wakers know)."""
    global _loop, _bell, _sleeps_until
    loop = asyncio.get_running_loop()
    if loop is not _loop:  # an event belongs to one loop (each test has its own)
        _loop, _bell = loop, asyncio.Event()
    _sleeps_until = math.inf
    _bell.clear()


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
