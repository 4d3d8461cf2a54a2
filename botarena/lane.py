"""The runners' arena lane (off by default: ``COINS_BOT_ARENA_LANE=1`` adds it to
``COINS_RUNNER_LANES``): seat the arena's games every ``COINS_BOT_ARENA_POLL`` seconds,
beside the tables. Runners in several processes share the work under the arena's lock."""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from games.realtime.db_threads import in_db_thread

from .pairing import arena_tick

log = logging.getLogger(__name__)


async def arena_forever() -> None:
    """The lane's loop; an error is logged and the next round tries again."""
    while True:
        try:
            await in_db_thread(arena_tick)()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("The bot arena lane failed; trying again")
        await asyncio.sleep(settings.COINS_BOT_ARENA_POLL)
