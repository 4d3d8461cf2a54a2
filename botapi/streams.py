"""The API's NDJSON streams: a person's events, and one seat's game.

The database is the truth: every line comes from it (``botapi.news``). The channel layer
only wakes a game stream early: it joins the table's group (``game-<id>``) on the streams'
layer (``COINS_STREAM_LAYER``: Redis pub/sub, which pushes each message to the process),
where every change of a table with a program seated is told (``games.realtime.push``), so a
card played in any server process reaches it at once. Without the layer
(Redis down or restarting) a stream reads the database every ``COINS_API_POLL`` seconds and
tries the layer again meanwhile: slower, never a state lost. Every stream writes an empty
line when it has said nothing for ``COINS_API_KEEPALIVE`` seconds. A stream that reconnects
starts again with ``gameFull``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.realtime.channels_adapter import retrying
from games.realtime.db_threads import in_db_thread
from games.realtime.push import group_name, stream_alias

from .access import seat_of
from .http import ApiError, authenticate
from .models import Scope
from .news import challenge_news, game_news, running_games
from .state import Snapshot

log = logging.getLogger(__name__)

WAKING = {"table.update", "table.chat"}  # group messages worth a look at the database
RETRY_LAYER_EVERY = 5.0  # seconds between tries to rejoin a failed channel layer


def line(data: dict) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


class LayerWake:
    """A channel of our own in a table's group: ``wait`` returns early when the table
    changed. Any failure of the layer turns it off until the next retry."""

    def __init__(self, group: str, clock=time.monotonic):
        self.group, self.clock = group, clock
        self.layer = get_channel_layer(stream_alias())
        self.channel = ""
        self.pending: asyncio.Future | None = None
        self.failed_at: float | None = None

    @property
    def up(self) -> bool:
        return bool(self.channel) and self.failed_at is None

    async def join(self) -> None:
        if self.layer is None:
            return
        try:
            self.channel = self.channel or await self.layer.new_channel()
            await retrying(self.layer.group_add, self.group, self.channel)
            self.failed_at = None
        except Exception as error:
            log.warning("Bot API stream without the channel layer (%s): reads the database", error)
            self.failed_at = self.clock()

    async def wait(self, timeout: float) -> str:
        """Return when the table changed (the type of the message that said so), or after
        ``timeout`` ("": at most ``COINS_API_POLL`` while the layer is down)."""
        if not self.up:
            if self.layer is not None and self.clock() - (self.failed_at or 0) > RETRY_LAYER_EVERY:
                await self.join()
            if not self.up:
                await asyncio.sleep(min(timeout, settings.COINS_API_POLL))
                return ""
        deadline = self.clock() + timeout
        while (left := deadline - self.clock()) > 0:
            if self.pending is None:
                self.pending = asyncio.ensure_future(self.layer.receive(self.channel))
            done, _ = await asyncio.wait({self.pending}, timeout=left)
            if not done:
                return ""
            pending, self.pending = self.pending, None
            try:
                message = pending.result()
            except Exception as error:
                log.warning("Bot API stream lost the channel layer (%s)", error)
                self.failed_at = self.clock()
                return ""
            if message.get("type") in WAKING:
                return message["type"]
        return ""

    async def close(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
        if self.up:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(self.group, self.channel)


async def game_lines(user, game_id: int, seat: int, clock=time.monotonic):
    """One seat's game: ``gameFull``, then its news as it comes; ends with the game."""
    wake = LayerWake(group_name(game_id), clock)
    await wake.join()  # before the first read: no change falls between the two
    seen, said_at, woken_by, chat_read_at = Snapshot(), clock(), "", clock()
    try:
        while True:
            # A card's wake skips the chat (it has a wake of its own), unless the chat has
            # not been read for a keepalive: a lost chat wake costs that, never the line.
            chat = woken_by != "table.update" or (
                clock() - chat_read_at >= settings.COINS_API_KEEPALIVE
            )
            chat_read_at = clock() if chat else chat_read_at
            lines, seen = await in_db_thread(game_news)(game_id, user, seat, seen, chat)
            for data in lines:
                yield line(data)
            if lines:
                said_at = clock()
            if seen.status in ("finished", "abandoned"):
                return
            if clock() - said_at >= settings.COINS_API_KEEPALIVE:
                yield b"\n"
                said_at = clock()
            woken_by = await wake.wait(max(0.0, said_at + settings.COINS_API_KEEPALIVE - clock()))
    finally:
        await wake.close()


async def event_lines(user, clock=time.monotonic):
    """A person's events: ``gameStart`` for every running game at once and for each new
    one, ``gameFinish`` as each ends, and the challenges (``botapi.news.challenge_news``);
    read every ``COINS_API_POLL`` seconds."""
    running: set[int] = set()
    challenges: dict[int, str] = {}
    opened_at = timezone.now()
    said_at = clock()
    while True:
        now_running = await in_db_thread(running_games)(user)
        lines, challenges = await in_db_thread(challenge_news)(user, challenges, opened_at)
        lines += [
            {"type": "gameStart", "game": {"id": str(g)}} for g in sorted(now_running - running)
        ]
        lines += [
            {"type": "gameFinish", "game": {"id": str(g)}} for g in sorted(running - now_running)
        ]
        running = now_running
        for data in lines:
            yield line(data)
        if lines:
            said_at = clock()
        elif clock() - said_at >= settings.COINS_API_KEEPALIVE:
            yield b"\n"
            said_at = clock()
        await asyncio.sleep(settings.COINS_API_POLL)


def ndjson(lines) -> StreamingHttpResponse:
    response = StreamingHttpResponse(lines, content_type="application/x-ndjson")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each line on at once
    return response


async def _token(request, *, bot: bool = False):
    if request.method != "GET":
        raise ApiError(405, _("Use %(method)s.") % {"method": "GET"})
    return await in_db_thread(authenticate)(request, Scope.BOT_PLAY, bot=bot)


async def event_stream(request):
    try:
        token = await _token(request)
    except ApiError as error:
        return error.response()
    return ndjson(event_lines(token.user))


async def game_stream(request, game_id: int):
    try:
        token = await _token(request, bot=True)
        _game, seat = await in_db_thread(seat_of)(token.user, game_id)
    except ApiError as error:
        return error.response()
    return ndjson(game_lines(token.user, game_id, seat))
