"""Search bots think in a separate process, never in a thread of the process serving sockets.

A search takes up to a quarter of a second of pure Python; run in the server process it would
hold the interpreter lock and stall every table. The worker process receives only the bot's
level, its seed, its own seat view and the budget: the same information the bot may use.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings

from .engine import SeatView
from .engine.bots import Budget, make_bot

SEARCH_BOTS = frozenset({"expert"})

_pool: ProcessPoolExecutor | None = None


def choose(level: str, seed: str, view: SeatView, budget: Budget) -> int:
    """Return the card the bot of ``level`` plays from ``view`` (runs in the worker)."""
    return make_bot(level, seed=seed).choose(view, budget)


def pool() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # "spawn": a fresh interpreter, not a fork of a process with threads and sockets.
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            max_workers=settings.COINS_THINKING_PROCESSES, mp_context=context
        )
    return _pool


async def choose_elsewhere(level: str, seed: str, view: SeatView, budget: Budget) -> int:
    """Run ``choose`` in the worker pool without blocking the event loop. A pool whose
    worker died is broken for good: it is replaced, and the search asked again once."""
    global _pool
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(), choose, level, seed, view, budget)
    except BrokenProcessPool:
        _pool = None
        return await loop.run_in_executor(pool(), choose, level, seed, view, budget)
