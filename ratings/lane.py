"""Each runner process's ratings lane: rates finished games from the queue
(``ratings.queue``), beside the tables and never in their way (a table runner only queues a
game that ended; it never waits for the rating lock)."""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from games.realtime.db_threads import in_background_thread

from .queue import RATE_BATCH, queued_rate

log = logging.getLogger(__name__)


async def rate_forever() -> None:
    """The lane's loop: rate what is queued, look again every ``COINS_RATINGS_POLL`` once the
    queue is drained (a full batch means more may wait: no pause)."""
    while True:
        try:
            if await in_background_thread(queued_rate)() < RATE_BATCH:
                await asyncio.sleep(settings.COINS_RATINGS_POLL)
        except asyncio.CancelledError:
            raise
        except Exception:  # a database restart, say: logged, and tried again
            log.exception("The ratings lane failed; trying again")
            await asyncio.sleep(5)
