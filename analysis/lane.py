"""Each runner process's analysis lane: one game at a time, worked in a low-priority process
of its own (``games.table.thinking``'s ``analysis`` pool), beside the tables and never in
their way (a card or a clock is served by the table runner, which does not wait for this).

The lane takes a game only while the machine has room (``analysis.room``), and while its
worker has one in hand it closes the worker's gate whenever the room goes or the machine is
between its slices (people are playing), and opens it again when it may go on: the worker
waits before its next card. Meanwhile the lane renews the game's lease, so that a long pause
does not pass the game to another lane."""

from __future__ import annotations

import asyncio
import logging
import time

from django.conf import settings

from games.realtime.db_threads import in_db_thread
from games.table.thinking import ANALYSIS, pause_lane, run_elsewhere

from . import services
from .room import SAMPLE_EVERY, Room
from .work import Job, work

log = logging.getLogger(__name__)

RENEW_EVERY = services.LEASE.total_seconds() / 5  # seconds between renewals of a lease
HOLD_AT_MOST = 3600.0  # seconds a lane renews one game's lease at most (a worker stuck for
# good leaves it to run out, and another lane takes the game)


async def analyse_one(room: Room | None = None) -> bool:
    """Claim, work and save one queued analysis; False when none is queued. With ``room``,
    the worker pauses between cards while the machine is busy."""
    job = await in_db_thread(services.claim_next)()
    if job is None:
        return False
    keeper = asyncio.create_task(keep_while_working(job, room))
    try:
        result = await run_elsewhere(ANALYSIS, work, job)
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)
        pause_lane(ANALYSIS, False)  # the next game starts with the gate open
    if not await in_db_thread(services.save)(job, result):
        log.info("Analysis %s was taken over before it was saved", job.analysis_id)
    return True


async def keep_while_working(job: Job, room: Room | None, every: float = SAMPLE_EVERY) -> None:
    """While a worker has ``job``: its gate follows the machine's room, and its lease is
    renewed every ``RENEW_EVERY`` seconds (for ``HOLD_AT_MOST`` at most)."""
    started = renewed = time.monotonic()
    paused = False
    while True:
        await asyncio.sleep(every)
        if room is not None and (not room.may_work()) != paused:
            paused = not paused
            pause_lane(ANALYSIS, paused)
        now = time.monotonic()
        if now - renewed >= RENEW_EVERY and now - started < HOLD_AT_MOST:
            renewed = now
            try:
                if not await in_db_thread(services.renew_lease)(job):
                    log.info("Analysis %s was taken over while it was worked", job.analysis_id)
            except Exception:  # the database is away: the next renewal tries again
                log.exception("Could not renew the lease of analysis %s", job.analysis_id)


async def analyse_forever() -> None:
    """The lane's loop: work what is queued while the machine has room, look again every
    ``COINS_ANALYSIS_POLL`` when nothing is queued."""
    room = Room(settings.COINS_ANALYSIS_ROOM, settings.COINS_ANALYSIS_QUIET)
    while True:
        try:
            if not room.has_room():
                await asyncio.sleep(SAMPLE_EVERY)
            elif not await analyse_one(room):
                await asyncio.sleep(settings.COINS_ANALYSIS_POLL)
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the lease runs out and the game is tried again
            log.exception("The analysis lane failed; trying again")
            await asyncio.sleep(5)
