"""Telling a table's sockets who is there: a small frame of seat marks and the watcher count,
never a board, and at most one per table every ``ANNOUNCE_EVERY`` seconds per process.

A socket's arrival or departure used to redraw the board for every other socket at the table,
so 150 watchers coming and going cost 150 x 150 boards. Now a change is noted, and one
reading of the table's presence is sent to its group a moment later, however many sockets
came and went meanwhile; each socket answers it with a frame rendered once per language.
"""

from __future__ import annotations

import asyncio
import logging
from functools import lru_cache

from channels.layers import get_channel_layer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.realtime.channels_adapter import retrying
from games.realtime.db_threads import in_background_thread
from games.realtime.presence import presence_reading

log = logging.getLogger(__name__)

ANNOUNCE_EVERY = settings.COINS_PRESENCE_EVERY  # seconds: changes this close share a frame

_due: set[tuple[int, int]] = set()  # (event loop, table) with an announcement on its way
_tasks: set[asyncio.Task] = set()  # the loop holds tasks weakly


def presence_changed(game_id: int, group: str) -> None:
    """Note that a socket came to or left the table: its group hears of it shortly."""
    loop = asyncio.get_running_loop()
    key = (id(loop), game_id)
    if key not in _due:
        _due.add(key)
        task = loop.create_task(_announce(key, group))
        _tasks.add(task)
        task.add_done_callback(_tasks.discard)


async def announcements_sent() -> None:
    """Wait until this process has sent every announcement on its way (tests wait on it
    rather than on a clock)."""
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(task for task in list(_tasks) if task.get_loop() is loop))


async def _announce(key: tuple[int, int], group: str) -> None:
    game_id = key[1]
    try:
        await asyncio.sleep(ANNOUNCE_EVERY)
    finally:
        _due.discard(key)
    try:
        reading = await in_background_thread(presence_reading)(game_id)
        event = {"type": "table.presence", **reading}
        await retrying(get_channel_layer().group_send, group, event)
    except Exception as error:  # presence is in the rows: pages show it when they next draw
        log.warning("Could not tell table %s who is there: %s", game_id, error)


def presence_frame(states: list[str], watching: int) -> str:
    """The frame for a presence reading, in the active language (rendered once each)."""
    return _frame(translation.get_language(), tuple(states), watching)


@lru_cache(maxsize=256)
def _frame(language: str, states: tuple[str, ...], watching: int) -> str:
    seats = [{"number": number, "presence": state} for number, state in enumerate(states)]
    context = {"seats": seats, "watching": watching}
    with translation.override(language):
        return render_to_string("games/table.html#presence_frame", context)
