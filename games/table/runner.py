"""Each process's table runner: does what tables' schedules say is due, exactly once.

Every server process runs one (started with the process: ``coins_site.asgi``), and
``manage.py run_tables`` runs one on its own. They all read the same schedule, the games'
``due_at`` column, and claim a due game with ``SELECT ... FOR UPDATE SKIP LOCKED``: a game
is served by one runner at a time, the others pass on to the next. What a runner does is a
``flow.run_due`` call, checked against the game as it finds it under the lock, so a second
runner reaching the same game finds nothing due. A runner killed mid-way leaves its
transaction uncommitted: the game is still due, and a surviving runner serves it within
``COINS_RUNNER_POLL`` seconds (a search bot's lease, ``lifecycle.SEARCH_LEASE``, expires as fast).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from functools import cache

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from coins_site.monitoring import runner_lag
from coins_site.operations import heartbeat
from common.kept_rows import column, column_list, row_instance, table_name
from common.metrics import counted
from games.models import Game
from games.realtime.db_threads import in_background_thread, in_db_thread
from games.signals import runner_idle
from games.table import alarm, flow
from games.table.lifecycle import RETRY_AFTER, retry_later
from games.table.thinking import choose_elsewhere

log = logging.getLogger(__name__)

IDLE_WORK_EVERY = 1.0  # seconds between two rounds of other apps' background work
THINKING_AT_ONCE = settings.COINS_THINKING_PROCESSES  # searches at once per runner (one per
# worker process); the others wait their turn


def claim_and_run() -> int | flow.Thinking | None:
    """Serve the game that has been due longest, if any; return its id (or what a search
    bot must think about), or None when nothing is due."""
    return claim_and_run_next()[0]


def claim_and_run_next() -> tuple[int | flow.Thinking | None, bool]:
    """``claim_and_run``, and whether another game was due as this one was claimed (read in
    the claim's statement). A runner that served the last due game naps at once: it spent a
    look (a transaction of its own) finding the schedule empty after every game, and a game
    this process made due meanwhile ends its nap (``alarm``: after ``alarm.MIN_NAP`` if it
    is due already).

    The claim reads the whole game row as it locks it, and the due work goes on in the
    claim's transaction with no savepoint: a bot's card is the claim, the batch and the
    ``BEGIN`` and ``COMMIT`` around them (four round trips with the game in this process's
    cache), where reading the row again under a savepoint in a savepoint took nine. Work that
    fails rolls the whole transaction back, and the game is put back for later in a
    statement of its own."""
    claimed = None
    with counted("bot") as box:
        box["moves"] = 0  # a look at the schedule costs queries too: counted, no card
        try:
            with transaction.atomic():
                now = timezone.now()
                claimed = _claim_due(now)
                if claimed is None:
                    return None, False
                game, more = claimed
                runner_lag((now - game.due_at).total_seconds())  # how late this work is served
                outcome = flow.run_due(game.pk, locked=game)
        except Exception:
            if claimed is None:
                raise  # the claim itself failed (a database restart): the runner's loop logs it
            # this game only: put it back later, serve the others meanwhile
            log.exception("Game %s failed its due work; trying again in %s", game.pk, RETRY_AFTER)
            retry_later(game.pk)
            return game.pk, more
        if isinstance(outcome, flow.Served):
            box["moves"] = outcome.cards
        return (outcome if isinstance(outcome, flow.Thinking) else game.pk), more


def _claim_due(now) -> tuple[Game, bool] | None:
    """Lock the game due longest that no other runner holds (``SKIP LOCKED``) and read its
    row; return it, and whether another game is due besides it. One statement, written once
    per vendor: the ORM's building of it (a subquery, a lock, an order) was a tenth of a
    runner's CPU."""
    db = connections[DEFAULT_DB_ALIAS]
    moment = db.ops.adapt_datetimefield_value(now)
    with db.cursor() as cursor:
        cursor.execute(_claim_statement(db.vendor), [moment, moment])
        row = cursor.fetchone()
    if row is None:
        return None
    return row_instance(Game, db, row[:-1]), bool(row[-1])


@cache
def _claim_statement(vendor: str) -> str:
    db = connections[DEFAULT_DB_ALIAS]
    table, key, due = table_name(Game), column(Game, "pk"), column(Game, "due_at")
    lock = " FOR UPDATE SKIP LOCKED" if db.features.has_select_for_update_skip_locked else ""
    others = f"SELECT 1 FROM {table} AS other WHERE other.{due} <= %s AND other.{key} <> g.{key}"
    return (
        f"SELECT {column_list(Game, 'g')}, EXISTS ({others}) FROM {table} AS g"
        f" WHERE g.{due} <= %s ORDER BY g.{due} LIMIT 1{lock}"
    )


RUN_LIMIT = 100  # games served in one pass at most; a pass that served this many looks again


async def run_due_tables(limit: int = RUN_LIMIT) -> int:
    """Serve due games until none is due (at most ``limit``); return how many were served."""
    served, more = 0, True
    while more and served < limit:
        alarm.looking()
        outcome, more = await in_db_thread(claim_and_run_next)()
        if outcome is None:
            break
        if isinstance(outcome, flow.Thinking):
            task = asyncio.get_running_loop().create_task(think_and_play(outcome))
            _tasks.add(task)  # thinks while this runner serves other tables
            task.add_done_callback(_tasks.discard)
        served += 1
    return served


async def think_and_play(thinking: flow.Thinking) -> None:
    """A search bot's turn: think in the worker processes, then play if nothing moved
    (its lease lets another runner take the turn over if this process dies meanwhile)."""
    try:
        async with _thinking():
            card = await choose_elsewhere(thinking.level, thinking.seed, thinking.view)
        await in_db_thread(flow.play_thought)(
            game_id=thinking.game_id, expected_moves=thinking.moves, card=card
        )
    except Exception:  # the lease runs out and a runner tries again
        log.exception("A search bot's turn failed at game %s", thinking.game_id)


_thinking_slots: dict[int, asyncio.Semaphore] = {}


def _thinking() -> asyncio.Semaphore:
    """This process's limit on searches at once (one semaphore per event loop)."""
    loop = id(asyncio.get_running_loop())
    if loop not in _thinking_slots:
        _thinking_slots[loop] = asyncio.Semaphore(THINKING_AT_ONCE)
    return _thinking_slots[loop]


def idle_work() -> None:
    """Background work of other apps, riding on the runners (see ``runner_idle``)."""
    runner_idle.send(sender=None)


async def _idle_work_logged() -> None:
    """``idle_work`` in a database thread of its own; an error is logged, and the next
    round tries again."""
    try:
        await in_background_thread(idle_work)()
    except Exception:
        log.exception("The runner's background work failed; trying again later")


async def run_tables_forever() -> None:
    """The runner's loop: serve what is due, look again shortly; never stop on an error."""
    log.info("Table runner started in process %s", os.getpid())
    idle_since = 0.0
    idle_task: asyncio.Task | None = None
    pacemaker = heartbeat.Pacemaker()
    while True:
        try:
            if pacemaker.due():  # this runner is alive, for /healthz
                await in_background_thread(pacemaker.beat)()
            # A pass that stopped short of its limit found nothing more due (its last claim
            # said so): the runner naps at once. Looking again first found nothing in 113 of
            # 157 empty looks of a 100-table run (issue 31).
            if await run_due_tables(RUN_LIMIT) < RUN_LIMIT:
                now = time.monotonic()
                idle = idle_task is None or idle_task.done()
                if idle and now - idle_since >= IDLE_WORK_EVERY:
                    # beside the tables, not in their way: a recompute of every rating takes
                    # a while, and the tables keep moving meanwhile
                    idle_since = now
                    idle_task = asyncio.create_task(_idle_work_logged())
                await nap()
        except asyncio.CancelledError:
            if idle_task is not None:  # its thread's work ends before the runner says it has
                idle_task.cancel()
                await asyncio.gather(idle_task, return_exceptions=True)
            raise
        except Exception:  # a database restart, say: log it and keep the tables going
            log.exception("The table runner failed; trying again")
            await asyncio.sleep(1)


async def nap() -> None:
    """Sleep until the next game this process scheduled is due, it schedules one sooner, or
    ``COINS_RUNNER_POLL`` seconds pass (games another process scheduled, if it died):
    ``games/table/alarm.py``. No statement: reading the whole schedule's earliest game woke
    every process's runner for every game."""
    alarm.going_to_sleep()
    await alarm.sleep(alarm.seconds_to_next(settings.COINS_RUNNER_POLL))


_started_in: int | None = None  # the process whose event loop runs this module's runner


def start_in_this_process() -> None:
    """Start this process's runner on the running event loop, once per process."""
    global _started_in
    if not settings.COINS_TABLE_RUNNER or _started_in == os.getpid():
        return
    _started_in = os.getpid()
    loop = asyncio.get_event_loop()
    for work in (run_tables_forever, *lanes()):
        task = loop.create_task(work())
        _tasks.add(task)  # keep a reference: the loop holds tasks weakly


def lanes() -> list:
    """Other apps' background lanes that run beside each runner (``COINS_RUNNER_LANES``:
    async functions that never return, such as the analysis of finished games)."""
    return [import_string(path) for path in settings.COINS_RUNNER_LANES]


_tasks: set[asyncio.Task] = set()
