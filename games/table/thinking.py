"""Search bots think in separate processes, never in a thread of the process serving sockets.

A search is pure Python (tens of milliseconds, see docs/bots.md's think-time figures); run in
the server process it would hold the interpreter lock and stall every table. The worker
process receives only the bot's name, its seed and its own seat view: the same information
the bot may use. It thinks with the bot's own budget, as everywhere else.

Two lanes, each its own pool of workers: ``bots`` (the bots' cards at every table) and
``hints`` (people asking for a hint). Hint workers run at a low priority and a process takes
at most ``COINS_HINTS_AT_ONCE`` hints at a time, refusing more: a flood of hints from many
accounts waits on itself and can never delay a bot's card. Workers die with the process that
started them (a killed server leaves no orphans).

The ``analysis`` lane's workers also pass a gate before each card they analyse, which their
server closes while the machine is busy (``analysis.room``): even on Linux's idle class, an
analysis running on every core doubled the tables' p99 with two servers on two cores.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from coins_site.monitoring import search_queue
from games.engine import SeatView
from games.engine.bots import BOT_CLASSES, make_bot

__all__ = [
    "ANALYSIS",
    "BOTS",
    "HINTS",
    "LaneFull",
    "choose",
    "choose_elsewhere",
    "pause_lane",
    "pool",
    "run_elsewhere",
    "shutdown_pools",
    "stop_workers_now",
    "think_cap",
    "wait_for_room",
]

BOTS, HINTS, ANALYSIS = "bots", "hints", "analysis"
HINT_NICENESS = 10  # a hint worker gets what the bots' workers leave of the CPU
ANALYSIS_NICENESS = 15  # an analysis worker gets what is left after the hints (on Linux,
# only idle CPU: ``SCHED_IDLE``)
PARENT_CHECK_EVERY = 0.5  # seconds between a worker's looks at whether its parent lives

_pools: dict[str, ProcessPoolExecutor] = {}
_asked: dict[str, int] = {BOTS: 0, HINTS: 0, ANALYSIS: 0}  # searches asked for and not yet answered
PAUSING_LANES = (ANALYSIS,)  # lanes whose workers wait at a gate their server may close
_gates: dict = {}  # lane -> its gate (a process-shared event: set means go on)
_gate = None  # in a worker: its lane's gate, if the lane has one


class LaneFull(Exception):
    """Too many hints are being thought about in this process: ask again in a moment.
    (Not a ``GameError``: this module is imported by the workers, which load no models.)"""


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


def worker_start(parent: int, niceness: int, gate=None) -> None:
    """Run first in every worker: leave when the parent process is gone (a kill -9 gives it
    no chance to stop its workers, which would live on under init), step back in priority
    if the lane asks, and keep the lane's gate (``wait_for_room``)."""
    global _gate
    _gate = gate
    if niceness:
        os.nice(niceness)
    if niceness >= ANALYSIS_NICENESS and hasattr(os, "SCHED_IDLE"):
        # Only what nothing else wants: at niceness 15 an analysis still took its share
        # whenever it was runnable (1.2 cores of 2 in a 200-table run), and the tables'
        # p99 was 71 to 96 ms; idle, 59 ms (docs/benchmarks.md, twelfth sitting).
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def wait_for_room() -> None:
    """In a worker: wait until the lane's gate is open (at once in a lane without one). The
    parent's watch thread still ends the worker if the parent dies meanwhile."""
    if _gate is not None:
        _gate.wait()


def _lane_gate(lane: str):
    if lane not in PAUSING_LANES:
        return None
    if lane not in _gates:
        _gates[lane] = multiprocessing.get_context("spawn").Event()
        _gates[lane].set()
    return _gates[lane]


def pause_lane(lane: str, paused: bool) -> None:
    """Close (``paused``) or open the gate of ``lane``'s workers: a paused worker stops
    before its next card and goes on from there once the gate opens."""
    gate = _lane_gate(lane)
    if gate is None:
        raise ValueError(f"The {lane} lane has no gate.")
    if paused:
        gate.clear()
    else:
        gate.set()


def pool(lane: str = BOTS) -> ProcessPoolExecutor:
    if lane not in _pools:
        # "spawn": a fresh interpreter, not a fork of a process with threads and sockets.
        workers = {
            BOTS: settings.COINS_THINKING_PROCESSES,
            HINTS: settings.COINS_HINT_PROCESSES,
            ANALYSIS: settings.COINS_ANALYSIS_PROCESSES,
        }[lane]
        niceness = {HINTS: HINT_NICENESS, ANALYSIS: ANALYSIS_NICENESS}.get(lane, 0)
        _pools[lane] = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=worker_start,
            initargs=(os.getpid(), niceness, _lane_gate(lane)),
        )
    return _pools[lane]


def shutdown_pools() -> None:
    """Stop every lane's workers (they start again when next needed)."""
    _open_gates()  # a worker waiting at a closed gate would hold the shutdown for good
    while _pools:
        _lane, executor = _pools.popitem()
        executor.shutdown(cancel_futures=True)


def stop_workers_now() -> None:
    """Stop every lane's workers at once, work in hand and all: the server is stopping.

    At exit Python waits for each pool's work in hand (``concurrent.futures``' own exit
    hook), and an analysis at a low priority could hold a stopping server for minutes. What
    is cut short is not lost: a game's due card stays due for another server's runner, an
    analysis's lease runs out and it is taken again, a hint is asked again.

    Then it waits for each pool's manager thread to end. Python's exit hook wakes that
    thread through a pipe the thread closes as it ends; one still ending at exit had the
    hook write to the closed pipe (Python 3.11: "Bad file descriptor" as a server stopped).
    """
    while _pools:
        _lane, executor = _pools.popitem()
        workers = list((executor._processes or {}).values())  # the pool keeps no public list
        manager = executor._executor_manager_thread  # private too; shutdown forgets it
        executor.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.join(timeout=5)
        if manager is not None:
            manager.join(timeout=5)


def _open_gates() -> None:
    for gate in _gates.values():
        gate.set()


async def choose_elsewhere(bot_name: str, seed: str, view: SeatView, lane: str = BOTS) -> int:
    """Run ``choose`` in the lane's workers without blocking the event loop. A pool whose
    worker died is broken for good: it is replaced, and the search asked again once. The
    hints lane refuses a search past ``COINS_HINTS_AT_ONCE`` with ``LaneFull``."""
    if lane == HINTS and _asked[HINTS] >= settings.COINS_HINTS_AT_ONCE:
        raise LaneFull(_("Many hints are being worked out right now: ask again in a moment."))
    loop = asyncio.get_running_loop()
    _asked[lane] += 1
    search_queue(lane, +1)
    try:
        try:
            return await loop.run_in_executor(pool(lane), choose, bot_name, seed, view)
        except BrokenProcessPool:
            _pools.pop(lane, None)
            return await loop.run_in_executor(pool(lane), choose, bot_name, seed, view)
    finally:
        _asked[lane] -= 1
        search_queue(lane, -1)


async def run_elsewhere(lane: str, function, *args):
    """Run ``function(*args)`` (importable, pure work) in the lane's workers; a broken pool
    is replaced and the work asked again once."""
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(pool(lane), function, *args)
    except BrokenProcessPool:
        _pools.pop(lane, None)
        return await loop.run_in_executor(pool(lane), function, *args)
