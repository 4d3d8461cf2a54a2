"""Each runner process's analysis lane: one game at a time, worked in a low-priority process
of its own (``games.table.thinking``'s ``analysis`` pool), beside the tables and never in
their way (a card or a clock is served by the table runner, which does not wait for this)."""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from games.realtime.db_threads import in_db_thread
from games.table.thinking import ANALYSIS, run_elsewhere

from . import services
from .work import work

log = logging.getLogger(__name__)


async def analyse_one() -> bool:
    """Claim, work and save one queued analysis; False when none is queued."""
    job = await in_db_thread(services.claim_next)()
    if job is None:
        return False
    result = await run_elsewhere(ANALYSIS, work, job)
    if not await in_db_thread(services.save)(job, result):
        log.info("Analysis %s was taken over before it was saved", job.analysis_id)
    return True


async def analyse_forever() -> None:
    """The lane's loop: work what is queued, look again every ``COINS_ANALYSIS_POLL``."""
    while True:
        try:
            if not await analyse_one():
                await asyncio.sleep(settings.COINS_ANALYSIS_POLL)
        except asyncio.CancelledError:
            raise
        except Exception:  # logged; the lease runs out and the game is tried again
            log.exception("The analysis lane failed; trying again")
            await asyncio.sleep(5)
