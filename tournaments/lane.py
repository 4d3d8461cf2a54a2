"""Each runner process's tournament lane: advance the tournaments (start them, seat tables,
start Swiss rounds, end them) every ``COINS_TOURNAMENT_POLL`` seconds, beside the tables.
Runners in several processes share the work: each tournament is locked while advanced."""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from games.realtime.db_threads import in_background_thread

from .pairing import tournaments_tick

log = logging.getLogger(__name__)


async def pair_forever() -> None:
    """The lane's loop; an error is logged and the next round tries again."""
    while True:
        try:
            await in_background_thread(tournaments_tick)()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("The tournament lane failed; trying again")
        await asyncio.sleep(settings.COINS_TOURNAMENT_POLL)
