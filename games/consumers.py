"""The table's WebSocket: one message in is one service call; every update is re-rendered
from the receiving socket's own seat view.
"""

from __future__ import annotations

import asyncio
import json
import logging
from types import SimpleNamespace

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.selectors import preferred_language

from . import flow, services
from .channels_adapter import dispatch_without_db_hop, others_watching
from .chat_socket import CHAT_KEYS, ChatSocket
from .db_threads import in_db_thread
from .engine import CARD_CODES, IllegalPlay
from .hints import HINT_BOT, hint_view
from .hints import explain as explain_hint
from .invites import HiddenTable, table_for
from .metrics import counted
from .models import Game
from .presence import (
    TOUCH_EVERY,
    live_sockets_of,
    presence_join,
    presence_leave,
    presence_touch,
)
from .refusals import refusal_text
from .selectors import cached_game
from .table_updates import (
    group_name,
    render_board,
    render_message,
    socket_request,
    user_group,
    viewer_context,
)
from .thinking import choose_elsewhere
from .throttle import CLOSE_FLOODING, MessageBucket

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 2048
SYNC = '{"sync": true}'  # what a page sends after a silence (static/js/table.js)


CLOSE_SESSION_ENDED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY_SOCKETS = 4409


class TableConsumer(ChatSocket, AsyncWebsocketConsumer):
    async def dispatch(self, message):
        await dispatch_without_db_hop(self, message)  # see games/channels_adapter.py

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.sent_moves, self.sent_status = -1, ""
        self.left, self.seated, self.grouped = False, False, []
        self.hint_pending, self.hint_task = False, None
        self.bucket = MessageBucket(
            burst=settings.COINS_SOCKET_BURST,
            per_second=settings.COINS_SOCKET_RATE,
            tokens=settings.COINS_SOCKET_BURST,
        )
        # Set in this socket's own context: its handlers and database threads (which copy
        # the context) all render in the viewer's language.
        translation.activate(await in_db_thread(socket_language)(self.user, self.scope))
        # Every board this socket sends is rendered with this request: the viewer's own.
        self.request = socket_request(self.scope, self.game_id)
        refusal, self.seed = await in_db_thread(_access)(self.game_id, self.request)
        if refusal is not None:
            # Accepted first, so the page hears why (a refused handshake is a bare HTTP 403).
            await self.accept()
            await self.close(code=refusal)
            return
        self.group = group_name(self.game_id)
        await self.join_groups()
        await self.accept()
        self.presence = await in_db_thread(presence_join)(
            game_id=self.game_id, channel=self.channel_name, user=self.user
        )
        self.presence_task = asyncio.create_task(self._keep_presence())
        await self.send_board()
        await self.chat_connect()
        await self.announce_presence(self.presence)

    async def join_groups(self):
        """Join the table's group (its updates) and the viewer's (their log-outs).

        With the channel layer down (Redis restarting) the socket still opens: its page
        asks for news after a silence, and the groups are joined again then.
        """
        groups = [self.group]
        if self.user is not None and self.user.is_authenticated:
            groups.append(user_group(self.user.pk))
        try:
            for group in groups:
                if group not in self.grouped:
                    await self.channel_layer.group_add(group, self.channel_name)
                    self.grouped.append(group)
        except Exception:
            log.warning("Channel layer unavailable: socket of table %s", self.game_id)

    async def disconnect(self, code):
        self.left = True
        if not hasattr(self, "group"):
            return
        self.presence_task.cancel()
        if self.hint_task is not None:
            self.hint_task.cancel()
        presence = await in_db_thread(presence_leave)(channel=self.channel_name)
        try:
            for group in self.grouped:
                await self.channel_layer.group_discard(group, self.channel_name)
            if presence is not None:
                await self.announce_presence(presence)
        except Exception:
            log.warning("Channel layer unavailable: socket of table %s", self.game_id)

    async def session_end(self, event):
        """The viewer logged out or changed their password: this socket must not go on
        acting for them. The page reconnects as whoever its cookies now say."""
        await self.close(code=CLOSE_SESSION_ENDED)

    async def announce_presence(self, presence: dict):
        """Tell the table's other sockets who is here now (they redraw their seats)."""
        try:
            if await others_watching(self.channel_layer, self.group, self.channel_name):
                sender = self.channel_name
                event = {"type": "table.presence", "presence": presence, "sender": sender}
                await self.channel_layer.group_send(self.group, event)
        except Exception:  # presence is in the rows: pages show it when they next draw
            log.warning("Channel layer unavailable: socket of table %s", self.game_id)

    async def table_presence(self, event):
        """Redraw the board with a newer reading of who is at the table."""
        presence, known = event["presence"], self.presence
        if event.get("sender") == self.channel_name or presence["at"] < known["at"]:
            return
        self.presence = presence
        if (presence["users"], presence["anonymous"]) != (known["users"], known["anonymous"]):
            await self.send_board(self.sent_moves)  # not for a second tab of someone here

    async def _keep_presence(self):
        """Refresh this socket's presence row while it stays open (a row left by a killed
        process goes stale instead)."""
        while True:
            await asyncio.sleep(TOUCH_EVERY)
            await in_db_thread(presence_touch)(channel=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.bucket.take():
            if self.bucket.should_close:
                log.info("Socket of table %s closed for flooding", self.game_id)
                await self.close(code=CLOSE_FLOODING)
            elif self.bucket.should_answer:
                await self.send(render_message(_("Slow down: too many messages at once.")))
            return
        if text_data == SYNC:
            await self.send_board_if_newer()
            await self.chat_catch_up()
            return
        data = _message_from(text_data, bytes_data)
        if isinstance(data, _Refusal):
            await self.send(render_message(data.message))
            return
        if "hint" in data:
            if self.hint_pending:
                await self.send(render_message(_("Your hint is on its way: one at a time.")))
                return
            self.hint_pending = True  # thought out beside this socket's other messages
            self.hint_task = asyncio.create_task(self.send_hint())
            return
        chat = next((key for key in CHAT_KEYS if key in data), None)
        if chat is not None:
            await self.chat_request(chat, data[chat])
            return
        card = data.get("card")
        if not isinstance(card, str):
            await self.send(render_message(_('Say which card to play, like {"card": "12O"}.')))
            return
        try:
            html, moves, status = await in_db_thread(_play_and_render)(
                self.game_id, self.request, card, self.channel_name, self.presence
            )
        except (services.GameError, IllegalPlay) as error:
            await self.send(render_message(refusal_text(error)))
            return
        self.sent_moves, self.sent_status = moves, status
        await self.send(html)  # the others hear of it from the move itself, once committed

    async def send_hint(self):
        """Answer a hint request with the card the hard level would play, and why. One
        hint at a time per socket: a second request while one is thought out is refused."""
        try:
            try:
                seed, view = await in_db_thread(hint_view)(game_id=self.game_id, user=self.user)
            except (services.GameError, IllegalPlay) as error:
                await self.send(render_message(refusal_text(error)))
                return
            card = await choose_elsewhere(HINT_BOT, seed, view)
            hint = explain_hint(view, card)
            await self.send(render_message(hint, level="hint", hint_card=CARD_CODES[card]))
        finally:
            self.hint_pending = False

    async def table_update(self, event):
        """Show a change announced to the table: a move count newer than this socket's last
        board, or -1 for a change that is not a move (a seat taken, a resignation)."""
        moves = event["moves"]
        if moves < 0 or moves > self.sent_moves:
            await self.send_board(None if moves < 0 else moves)

    async def send_board(self, moves: int | None = None):
        """Send the board after ``moves`` plays (the current one if None), unless this
        socket has already sent a later one."""
        if self.left:
            return
        html, moves, status, seated = await in_db_thread(_render_for)(
            self.game_id, self.seed, self.request, moves, self.presence
        )
        if moves >= self.sent_moves:
            self.sent_moves, self.sent_status, self.seated = moves, status, seated
            await self.send(html)

    async def send_board_if_newer(self):
        """Answer a page that has heard nothing for a while: send the board only if the game
        has moved (or started, or ended) since the last one this socket sent.

        Updates travel through the channel layer, which can lose one (channels-redis drops
        a message when the socket that was reading for the process disconnects: django/
        channels#1683). The page asks again after a silence, so a lost update costs a few
        seconds, never a stuck table.
        """
        if len(self.grouped) < 1 + bool(self.user and self.user.is_authenticated):
            await self.join_groups()  # the channel layer was down when this socket opened
        current = await in_db_thread(_moves_and_status)(self.game_id)
        if current is not None and current != (self.sent_moves, self.sent_status):
            await self.send_board()


class _Refusal:
    def __init__(self, message: str):
        self.message = message


def _message_from(text_data, bytes_data) -> dict | _Refusal:
    """The JSON object a socket message holds, or why the message is refused."""
    if bytes_data is not None or text_data is None:
        return _Refusal(_("Send text messages only."))
    if len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return _Refusal(_("That message is too large."))
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # deeply nested input exhausts the parser's stack
        return _Refusal(_("That message is not valid JSON."))
    if not isinstance(data, dict):
        return _Refusal(_('Say which card to play, like {"card": "12O"}.'))
    headers = data.get("HEADERS", {})  # htmx's ws extension sends the request headers
    nested = any(isinstance(v, dict | list) for k, v in data.items() if k != "HEADERS")
    if (
        nested
        or not isinstance(headers, dict)
        or not all(isinstance(value, str | None) for value in headers.values())
    ):
        return _Refusal(_('A message holds plain values only, like {"card": "12O"}.'))
    return data


def socket_language(user, scope) -> str:
    """The language of a socket's viewer, chosen as for their pages: the profile's choice,
    else what Django's ``LocaleMiddleware`` would pick from the cookie or the browser."""
    language = preferred_language(user) if user is not None else ""
    if language:
        return language
    headers = dict(scope.get("headers", []))
    handshake = SimpleNamespace(  # the parts of a request the locale lookup reads
        COOKIES=scope.get("cookies", {}),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(handshake)


def _access(game_id: int, request) -> tuple[int | None, str]:
    """Return (None, seed) if the viewer may watch this table, else (close code, "")."""
    try:
        game = table_for(request, game_id)
    except Game.DoesNotExist:
        return CLOSE_NOT_FOUND, ""
    except HiddenTable:
        return CLOSE_FORBIDDEN, ""
    user = request.user
    if user.is_authenticated and live_sockets_of(game_id, user) >= settings.COINS_MAX_SOCKETS:
        return CLOSE_TOO_MANY_SOCKETS, ""
    return None, game.seed


def _moves_and_status(game_id: int) -> tuple[int, str] | None:
    return Game.objects.filter(pk=game_id).values_list("moves", "status").first()


def _render_for(
    game_id: int, seed: str, request, moves: int | None, presence: dict
) -> tuple[str, int, str, bool]:
    """Render the board for the socket's viewer: from this process's cache when it has move
    ``moves``. Return it with the move count and status it shows, and whether the viewer
    is seated (their chat room follows)."""
    with counted("push"):
        loaded = cached_game(game_id, seed, moves) if moves is not None and moves >= 0 else None
        game = loaded.game if loaded else Game.objects.get(pk=game_id)
        context = viewer_context(game, request, loaded=loaded, presence=presence)
        return render_board(context, request), game.moves, game.status, context["viewer_is_seated"]


def _play_and_render(
    game_id: int, request, card: str, channel: str, presence: dict
) -> tuple[str, int, str]:
    """Play the card (and, without a bot pause, the bots' answers); return the board with
    the move count and status it shows."""
    with counted("human") as box:
        user = request.user
        result = flow.play_card(game_id=game_id, user=user, card=card, skip_channel=channel)
        box["moves"] = result.played
        game = result.loaded.game
        context = viewer_context(game, request, loaded=result.loaded, presence=presence)
        return render_board(context, request), result.moves, game.status
