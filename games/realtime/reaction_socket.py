"""The reactions half of the table's socket: a seated person's emoji, shown by their seat on
every page at the table (``games.table.reactions`` says who may react, and how often).

A reaction goes to the sender's own socket at once and to the table's other sockets through
the channel layer; each socket drops it if its viewer muted the sender in chat. Reactions are
not stored: one the channel layer fails to pass on is lost (with a log line).
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from games.realtime.channels_adapter import others_watching
from games.realtime.db_threads import in_db_thread
from games.table.reactions import ReactionRefused, reaction_send, shown_reaction

log = logging.getLogger(__name__)

REACTION_KEY = "react"  # what a page sends: {"react": "clap"}


class ReactionSocket:
    """Mixed into ``TableConsumer`` (which gives ``game_id``, ``user``, ``group``,
    ``present`` and, from ``ChatSocket``, ``muted``)."""

    async def reaction_request(self, value: object):
        """Pass on one reaction of this socket's viewer, or say why not."""
        try:
            data = await in_db_thread(reaction_send)(
                game_id=self.game_id, user=self.user, reaction=value
            )
        except ReactionRefused as refusal:
            await self.send(reaction_notice(str(refusal)))
            return
        await self.send(reaction_frame(data) + reaction_notice(""))  # the sender sees it at once
        try:
            if await others_watching(self.channel_layer, self.group, self.channel_name):
                event = {"type": "table.reaction", "reaction": data, "sender": self.channel_name}
                await self.channel_layer.group_send(self.group, event)
        except Exception as error:  # ephemeral: lost, and nobody needs to catch up on it
            log.warning("Could not pass on a reaction at table %s: %s", self.game_id, error)

    async def table_reaction(self, event):
        data = event["reaction"]
        if not self.present or event["sender"] == self.channel_name:
            return  # a socket refused as it opened, or the sender's own
        if data["user_id"] in getattr(self, "muted", ()):
            return  # muted in chat: muted here too
        await self.send(reaction_frame(data))


def reaction_frame(data: dict) -> str:
    """A reaction for a page to show by its sender's seat (in the socket's language)."""
    return render_to_string("games/table.html#reaction_news", shown_reaction(data))


def reaction_notice(text: str) -> str:
    """Why a reaction was refused (or nothing: the last one went through)."""
    return render_to_string("games/table.html#reaction_notice", {"notice": text})
