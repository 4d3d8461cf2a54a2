"""The table's WebSocket: one message in is one service call; every update is re-rendered
from the receiving socket's own seat view.
"""

from __future__ import annotations

import asyncio
import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from coins_site.monitoring import socket_closed, socket_opened, throttled
from games.board.refusals import refusal_text
from games.board.render import render_message
from games.engine import CARD_CODES, IllegalPlay
from games.realtime.channels_adapter import (
    RidesOutLayerOutages,
    dispatch_without_db_hop,
    retrying,
)
from games.realtime.chat_socket import CHAT_KEYS, ChatSocket
from games.realtime.db_threads import in_background_thread, in_db_thread
from games.realtime.loop_card import play_on_loop
from games.realtime.presence import (
    TOUCH_EVERY,
    TooManySockets,
    presence_join,
    presence_leave,
    presence_touch,
)
from games.realtime.presence_frames import presence_changed, presence_frame
from games.realtime.push import group_name, tell_table, user_group
from games.realtime.reaction_socket import REACTION_KEY, ReactionSocket
from games.realtime.socket_calls import (
    Refusal,
    client_address,
    message_from,
    moves_and_status,
    play_and_render,
    render_for,
    shown_chat,
    socket_opening,
    spectator_board_after,
    tab_of,
)
from games.realtime.throttle import CLOSE_FLOODING, MessageBucket
from games.table import seats as services
from games.table.errors import TableMovedOn
from games.table.hints import HINT_BOT, hint_view
from games.table.hints import explain as explain_hint
from games.table.thinking import HINTS, LaneFull, choose_elsewhere

log = logging.getLogger(__name__)

SYNC = '{"sync": true}'  # what a page sends after a silence (static/js/table.js)


CLOSE_SESSION_ENDED = 4401
CLOSE_TOO_MANY_SOCKETS = 4409


class TableConsumer(RidesOutLayerOutages, ChatSocket, ReactionSocket, AsyncWebsocketConsumer):
    """Moves go on through a channel layer outage (they need only the database); the
    socket stays open and, once the layer is back, shows what it missed (``layer_back``)."""

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:  # however the socket ended (a crash included), its row stops counting
            await asyncio.shield(self.forget_presence())

    async def dispatch(self, message):
        await dispatch_without_db_hop(self, message)  # see games/channels_adapter.py

    async def connect(self):
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")  # read in the first hop (``socket_opening``)
        self.sent_moves, self.sent_status = -1, ""
        self.left, self.seated, self.grouped = False, False, []
        self.present = False  # whether this socket has a presence row
        self.shown_presence = None  # (seat states, watching) as this socket's page shows them
        self.hint_pending, self.hint_task = False, None
        self.bucket = MessageBucket(
            burst=settings.COINS_SOCKET_BURST,
            per_second=settings.COINS_SOCKET_RATE,
            tokens=settings.COINS_SOCKET_BURST,
        )
        # The table's group is joined first: no update falls between it and the first board.
        self.group = group_name(self.game_id)
        await self.join_groups(viewer_known=False)
        try:
            language, opened, first = await in_db_thread(self.open_and_arrive)()
        except TooManySockets as refusal:
            log.info("Socket of table %s refused: too many (%s)", self.game_id, refusal.reason)
            throttled("sockets")
            await self.accept()  # accepted first, so the page hears why
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return
        # The language is set in this socket's own context: its handlers and database
        # threads (which copy the context) all render in the viewer's language.
        translation.activate(language)
        refusal, self.seed, self.invite = opened
        if refusal is not None:
            # Accepted first, so the page hears why (a refused handshake is a bare HTTP 403).
            await self.accept()
            await self.close(code=refusal)
            return
        await self.join_groups()  # the viewer's own group (their log-outs), now they are known
        await self.accept()
        board, chat = first
        self.presence_task = asyncio.create_task(self._keep_presence())
        await self.show_board(board)
        await self.send_chat(*chat)
        if self.presence["sockets"] > 1:  # alone at the table: no one to tell
            presence_changed(self.game_id, self.group)

    def open_and_arrive(self) -> tuple[str, tuple, tuple | None]:
        """In a database thread, the socket's one hop as it opens: who the viewer is, their
        language, the request its boards are rendered with (the viewer's own) and whether
        they may watch (``socket_opening``); then, if they may, ``arrive``. Return the
        language, the access and what ``arrive`` returns (None if refused)."""
        language, self.request, opened = socket_opening(self.game_id, self.scope)
        self.viewer = "member" if self.user and self.user.is_authenticated else "anonymous"
        if opened[0] is not None:
            return language, opened, None
        self.seed = opened[1]
        with translation.override(language):
            return language, opened, self.arrive()

    def arrive(self) -> tuple[tuple, tuple[str, int]]:
        """In a database thread: note the socket at the table (``presence_join``: it may
        refuse), then render its first board and its chat panel; one hop instead of four."""
        self.presence = presence_join(
            game_id=self.game_id,
            channel=self.channel_name,
            user=self.user,
            address=client_address(self.scope),
            tab=tab_of(self.scope),
        )
        self.present = True  # from here on its row goes however the socket ends
        socket_opened(self.viewer)
        board = render_for(self.game_id, self.seed, self.request, None, self.presence, first=True)
        return board, self.chat_opening(seated=board[3], shown=shown_chat(self.scope))

    async def join_groups(self, viewer_known: bool = True):
        """Join the table's group (its updates) and the viewer's (their log-outs; once
        ``viewer_known``: their session is read in the socket's first hop).

        With the channel layer down (Redis restarting) the socket still opens: its page
        asks for news after a silence, and the groups are joined again then.
        """
        groups = [self.group]
        if viewer_known and self.user is not None and self.user.is_authenticated:
            groups.append(user_group(self.user.pk))
        try:
            for group in groups:
                if group not in self.grouped:
                    await retrying(self.channel_layer.group_add, group, self.channel_name)
                    self.grouped.append(group)
        except Exception:
            log.warning("Channel layer unavailable: socket of table %s", self.game_id)

    async def disconnect(self, code):
        self.left = True
        if not hasattr(self, "group"):
            return
        if self.hint_task is not None:
            self.hint_task.cancel()
        await self.forget_presence()
        try:
            for group in self.grouped:
                await self.channel_layer.group_discard(group, self.channel_name)
        except Exception:
            log.warning("Channel layer unavailable: socket of table %s", self.game_id)

    async def forget_presence(self):
        """Remove this socket's presence row (once) and tell the table a moment later."""
        if not getattr(self, "present", False):
            return
        self.present = False
        if getattr(self, "presence_task", None) is not None:
            self.presence_task.cancel()
        socket_closed(self.viewer)
        if await in_db_thread(presence_leave)(channel=self.channel_name):
            presence_changed(self.game_id, self.group)  # to the sockets still there

    async def session_end(self, event):
        """The viewer logged out or changed their password: this socket must not go on
        acting for them. The page reconnects as whoever its cookies now say."""
        await self.close(code=CLOSE_SESSION_ENDED)

    async def layer_back(self, event):
        """The channel layer answers again after an outage: rejoin the groups and show
        whatever happened meanwhile (nothing for a socket refused or gone: its group was
        joined before the access check)."""
        if not self.present:
            return
        self.grouped = []
        await self.join_groups()
        await self.send_board_if_newer()
        await self.chat_catch_up()

    async def table_presence(self, event):
        """A newer reading of who is at the table: seat marks and the watcher count, a small
        frame (never a board: a watcher's coming and going costs the others nothing)."""
        if not self.present or event["presence"]["at"] < self.presence["at"]:
            return
        self.presence = event["presence"]  # the next board shows it too
        shown = (event["states"], event["watching"])
        if shown != self.shown_presence:  # often it is: a socket's own arrival, say
            self.shown_presence = shown
            await self.send(presence_frame(*shown))

    async def _keep_presence(self):
        """Refresh this socket's presence row while it stays open (a row left by a killed
        process goes stale instead)."""
        while True:
            await asyncio.sleep(TOUCH_EVERY)
            await in_background_thread(presence_touch)(channel=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        if not self.bucket.take():
            throttled("socket_messages")
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
        data = message_from(text_data, bytes_data)
        if isinstance(data, Refusal):
            await self.send(render_message(data.message))
            return
        if "hint" in data:
            if self.hint_pending:
                await self.send(render_message(_("Your hint is on its way: one at a time.")))
                return
            self.hint_pending = True  # thought out beside this socket's other messages
            self.hint_task = asyncio.create_task(self.send_hint())
            return
        if REACTION_KEY in data:
            await self.reaction_request(data[REACTION_KEY])
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
            played = await play_on_loop(self, card, data)
            if not isinstance(played, tuple):  # the threads' path (at once to the lock?)
                played = await in_db_thread(play_and_render)(
                    self.game_id,
                    self.request,
                    card,
                    self.channel_name,
                    self.presence,
                    data,
                    self.seed if played is None else "",  # no seed: no try on a copy
                    self.sent_moves if self.sent_moves >= 0 else None,
                )
        except TableMovedOn as moved_on:  # a card sent again: the board tells what happened
            if not moved_on.already_played:
                await self.send(render_message(refusal_text(moved_on)))
            await self.send_board()
            return
        except (services.GameError, IllegalPlay) as error:
            await self.send(render_message(refusal_text(error)))
            return
        html, moves, status, self.shown_presence, notices = played
        self.sent_moves, self.sent_status = moves, status
        await self.send(html)
        for notice in notices:  # the others hear of it once committed, after the mover
            await tell_table(*notice)

    async def send_hint(self):
        """Answer a hint request with the card the hard level would play, and why. One
        hint at a time per socket: a second request while one is thought out is refused."""
        try:
            try:
                seed, view = await in_db_thread(hint_view)(game_id=self.game_id, user=self.user)
            except (services.GameError, IllegalPlay) as error:
                await self.send(render_message(refusal_text(error)))
                return
            try:
                card = await choose_elsewhere(HINT_BOT, seed, view, lane=HINTS)
            except LaneFull as busy:  # the hints lane is full: no search queued
                throttled("hints")
                await self.send(render_message(str(busy)))
                return
            hint = explain_hint(view, card)
            await self.send(render_message(hint, level="hint", hint_card=CARD_CODES[card]))
        finally:
            self.hint_pending = False

    async def table_update(self, event):
        """Show a change announced to the table: a move count newer than this socket's last
        board, or -1 for a change that is not a move (a seat taken, a resignation)."""
        moves = event["moves"]
        if not self.present or 0 <= moves <= self.sent_moves:
            return
        shared = self.viewer == "anonymous" and spectator_board_after(
            self.game_id, moves, self.invite
        )
        if shared:  # a crowd of watchers: the board of this move is rendered already
            await self.show_board(shared)
        else:
            await self.send_board(None if moves < 0 else moves)

    async def send_board(self, moves: int | None = None):
        """Send the board after ``moves`` plays (the current one if None), unless this
        socket has already sent a later one."""
        if self.left:
            return
        await self.show_board(
            await in_db_thread(render_for)(
                self.game_id, self.seed, self.request, moves, self.presence
            )
        )

    async def show_board(self, board: tuple) -> None:
        html, moves, status, seated, shown = board
        if moves >= self.sent_moves and not self.left:
            self.sent_moves, self.sent_status, self.seated = moves, status, seated
            self.shown_presence = shown
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
        current = await in_db_thread(moves_and_status)(self.game_id)
        if current is not None and current != (self.sent_moves, self.sent_status):
            await self.send_board()
