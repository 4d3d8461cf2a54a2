"""Search bots think in separate processes, never in a thread of the process serving sockets.

A search is pure Python (tens of milliseconds, see the README's think-time figures); run in
the server process it would hold the interpreter lock and stall every table. The worker
process receives only the bot's name, its seed and its own seat view: the same information
the bot may use. It thinks with the bot's own budget, as everywhere else.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta

from django.conf import settings

from .engine import SeatView
from .engine.bots import BOT_CLASSES, make_bot

__all__ = ["choose", "choose_elsewhere", "pool", "think_cap"]

_pool: ProcessPoolExecutor | None = None


def think_cap(bot_name: str) -> timedelta:
    """The longest a bot may think for one card: its budget's clock cap (1 s if none)."""
    budget = BOT_CLASSES[bot_name].budget
    return timedelta(seconds=budget.seconds if budget and budget.seconds else 1.0)


def choose(bot_name: str, seed: str, view: SeatView) -> int:
    """Return the card the bot plays from ``view`` (runs in the worker). With
    ``COINS_THINK_LOG`` set (benchmarks, tests), the CPU it took and the process that
    thought are appended to that file."""
    started = time.process_time()
    card = make_bot(bot_name, seed=seed).choose(view)
    path = os.environ.get("COINS_THINK_LOG")
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{bot_name} {time.process_time() - started:.6f} {os.getpid()}\n")
    return card


def pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # "spawn": a fresh interpreter, not a fork of a process with threads and sockets.
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            max_workers=settings.COINS_THINKING_PROCESSES, mp_context=context
        )
    return _pool


async def choose_elsewhere(bot_name: str, seed: str, view: SeatView) -> int:
    """Run ``choose`` in the worker pool without blocking the event loop. A pool whose
    worker died is broken for good: it is replaced, and the search asked again once."""
    global _pool
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(), choose, bot_name, seed, view)
    except BrokenProcessPool:
        _pool = None
        return await loop.run_in_executor(pool(), choose, bot_name, seed, view)
