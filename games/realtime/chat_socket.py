"""The chat half of the table's socket: say something, mute, report, and show what others say.

A message goes to the sender's own socket at once and to the table's other sockets through
the channel layer; each socket shows it only if it belongs to its viewer's room (players or
spectators) and its viewer has not muted the sender.
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.models import ChatMessage
from games.realtime.channels_adapter import others_watching
from games.realtime.db_threads import in_db_thread
from games.realtime.push import tell_streams
from games.table.chat import (
    ChatRefused,
    chat_context,
    chat_mute,
    chat_post,
    chat_report,
    chat_unmute,
    message_data,
    muted_and_page_chat_stale,
    muted_ids,
    said_since,
    shown_text,
)

log = logging.getLogger(__name__)

CHAT_KEYS = ("chat", "chat_preset", "mute", "unmute", "report")


class ChatSocket:
    """Mixed into ``TableConsumer`` (which gives ``game_id``, ``user``, ``request``, ``group``
    and ``seated``)."""

    def chat_opening(self, seated: bool, shown: tuple[str, int] | None) -> tuple[str | None, int]:
        """In the opening socket's database thread: note whom the viewer muted, and the
        chat as it is now (what was said between the page's load and this socket's opening,
        or while a lost connection was down, would otherwise be missing). ``seated``: as
        the socket's first board found its viewer (players talk in a room of their own).

        ``shown``: the room and latest message the page shows (``socket_calls.shown_chat``).
        When that is the viewer's room and nothing in it changed for the page
        (``muted_and_page_chat_stale``), no panel is sent (None): a new game's socket
        renders no chat, in one statement that also reads whom the viewer muted."""
        room = ChatMessage.Room.PLAYERS if seated else ChatMessage.Room.SPECTATORS
        if shown is None or shown[0] != room:
            self.muted = muted_ids(self.user)
            return self._chat_panel(room, self.muted)
        self.muted, stale = muted_and_page_chat_stale(self.game_id, self.user, room, shown[1])
        if not stale:
            return None, shown[1]
        return self._chat_panel(room, self.muted)

    async def send_chat_panel(self):
        await self.send_chat(*await in_db_thread(self._chat_panel)())

    async def send_chat(self, html: str | None, seen: int) -> None:
        """Send a chat panel (None: the page's is up to date) showing messages up to ``seen``."""
        self.chat_seen = seen
        if html is not None:
            await self.send(html)

    async def chat_catch_up(self):
        """After a silence, show what was said meanwhile: a line can be lost on the way
        (channels-redis drops a message when the socket reading for its process closes,
        django/channels#1683), as a board can."""
        if await in_db_thread(said_since)(self.game_id, self.user, self.chat_seen):
            await self.send_chat_panel()

    async def chat_request(self, key: str, value: object):
        """Answer one chat request from this socket's viewer."""
        try:
            if key in ("chat", "chat_preset"):
                await self._say(**{"text" if key == "chat" else "preset": value})
            elif key == "report":
                await in_db_thread(chat_report)(
                    user=self.user, message_id=value, game_id=self.game_id
                )
                await self.send(chat_notice(_("Thank you: staff will look at that message.")))
            else:
                mute = chat_mute if key == "mute" else chat_unmute
                await in_db_thread(mute)(user=self.user, username=value)
                self.muted = await in_db_thread(muted_ids)(self.user)
                await self.send_chat_panel()
        except ChatRefused as refusal:
            await self.send(chat_notice(str(refusal), "error"))

    async def _say(self, text=None, preset=None):
        data = await in_db_thread(_post)(self.game_id, self.user, text, preset)
        self.chat_seen = max(self.chat_seen, data["id"])
        await self.send(self.chat_line(data) + chat_notice(""))
        event = {"type": "table.chat", "message": data, "sender": self.channel_name}
        await tell_streams(self.game_id, event)
        try:
            if await others_watching(self.channel_layer, self.group, self.channel_name):
                await self.channel_layer.group_send(self.group, event)
        except Exception as error:  # said and stored: the others' pages catch up after a silence
            log.warning("Could not pass on a chat line at table %s: %s", self.game_id, error)

    async def table_chat(self, event):
        data = event["message"]
        if not self.present or event["sender"] == self.channel_name:
            return  # a socket refused as it opened, or the sender's own
        if data["user_id"] in self.muted:
            return
        if data["room"] == ("players" if self.seated else "spectators"):
            self.chat_seen = max(self.chat_seen, data["id"])
            await self.send(self.chat_line(data))

    def chat_line(self, data: dict) -> str:
        """One message, appended to the log of the page."""
        return render_to_string(
            "games/table.html#chat_append",
            {"message": data, "text": shown_text(data), "game_id": self.game_id},
            request=self.request,
        )

    def _chat_panel(self, room: str | None = None, muted: set[int] | None = None):
        """The chat panel, and the latest message it shows (0 for none): a tuple."""
        context = chat_context(self.game_id, self.user, room, muted)
        html = render_to_string("games/table.html#chat", context, request=self.request)
        shown = [entry["message"]["id"] for entry in context["chat_messages"]]
        return html, max(shown, default=0)


def _post(game_id: int, user, text, preset) -> dict:
    return message_data(chat_post(game_id=game_id, user=user, text=text, preset=preset))


def chat_notice(text: str, level: str = "info") -> str:
    return render_to_string("games/table.html#chat_notice", {"notice": text, "level": level})
