"""The table's WebSocket: one message in is one service call; every update is re-rendered
from the receiving socket's own seat view.
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext as _

from . import services
from .engine import IllegalPlay
from .models import Game
from .selectors import bot_turn
from .table_updates import board_context, group_name, render_board, render_message

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.sent_moves = -1
        self.bot_task: asyncio.Task | None = None
        access = await database_sync_to_async(_access)(self.game_id, self.user, self._invite())
        if access is not None:
            await self.close(code=access)
            return
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_board()
        self.drive_bots()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.bot_task and not self.bot_task.done():
            # Let pending bot moves finish so the table is never left waiting on a bot.
            await asyncio.shield(self.bot_task)

    async def receive(self, text_data=None, bytes_data=None):
        card = _card_from_message(text_data, bytes_data)
        if isinstance(card, _Refusal):
            await self.send(render_message(card.message))
            return
        try:
            html, moves = await database_sync_to_async(_play_and_render)(
                self.game_id, self.user, card
            )
        except (services.GameError, IllegalPlay) as error:
            await self.send(render_message(str(error)))
            return
        self.sent_moves = moves
        await self.send(html)
        await self.channel_layer.group_send(self.group, {"type": "table.update", "moves": moves})
        self.drive_bots(expected_moves=moves)

    async def table_update(self, event):
        if event["moves"] > self.sent_moves:
            await self.send_board()
        self.drive_bots()

    async def send_board(self):
        html, moves = await database_sync_to_async(_render_for)(self.game_id, self.user)
        if moves >= self.sent_moves:
            self.sent_moves = moves
            await self.send(html)

    def drive_bots(self, expected_moves: int | None = None):
        """Start playing pending bot moves, unless this socket is already doing so."""
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.create_task(self._play_bots(expected_moves))

    async def _play_bots(self, moves: int | None):
        """Play the bots' turns: one by one after a pause, or all at once without one."""
        pause = settings.COINS_BOT_PAUSE
        while True:
            if moves is None or pause:
                moves = await database_sync_to_async(bot_turn)(self.game_id)
                if moves is None:
                    return
            if pause:
                await asyncio.sleep(pause)
                play = services.bot_play
            else:
                play = services.bots_play_pending
            result = await database_sync_to_async(play)(game_id=self.game_id, expected_moves=moves)
            if result is None:
                return  # no bot was due, or another socket played first
            await self.channel_layer.group_send(
                self.group, {"type": "table.update", "moves": result.moves}
            )
            if not pause:
                return
            moves = None

    def _invite(self) -> str:
        query = self.scope.get("query_string", b"").decode("latin-1")
        for part in query.split("&"):
            key, _sep, value = part.partition("=")
            if key == "invite":
                return value
        return ""


class _Refusal:
    def __init__(self, message: str):
        self.message = message


def _card_from_message(text_data, bytes_data) -> str | _Refusal:
    """Return the card code a message asks to play, or why the message is refused."""
    if bytes_data is not None or text_data is None:
        return _Refusal(_("Send text messages only."))
    if len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return _Refusal(_("That message is too large."))
    try:
        data = json.loads(text_data)
    except ValueError:
        return _Refusal(_("That message is not valid JSON."))
    if not isinstance(data, dict) or not isinstance(data.get("card"), str):
        return _Refusal(_('Say which card to play, like {"card": "12O"}.'))
    return data["card"]


def _access(game_id: int, user, invite: str) -> int | None:
    """Return None if the user may watch this table, else the close code to refuse with."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return CLOSE_NOT_FOUND
    if game.is_public or invite == game.invite_token:
        return None
    if user is not None and user.is_authenticated and game.seats.filter(user=user).exists():
        return None
    return CLOSE_FORBIDDEN


def _render_for(game_id: int, user) -> tuple[str, int]:
    game = Game.objects.get(pk=game_id)
    return render_board(board_context(game, user)), game.moves


def _play_and_render(game_id: int, user, card: str) -> tuple[str, int]:
    result = services.card_play(game_id=game_id, user=user, card=card)
    context = board_context(result.loaded.game, user, loaded=result.loaded)
    return render_board(context), result.moves
