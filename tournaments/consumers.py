"""A tournament page's socket (``ws/tournaments/<id>/``): it only listens. Whenever the
standings or tables change, it sends the page's live partial rendered for its own viewer
(htmx's ws extension swaps it in by id)."""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.realtime.channels_adapter import RidesOutLayerOutages, retrying
from games.realtime.db_threads import in_db_thread
from games.realtime.socket_calls import socket_language

from .live import group_name, live_html

log = logging.getLogger(__name__)

CLOSE_NO_TOURNAMENT = 4404


class StandingsConsumer(RidesOutLayerOutages, AsyncWebsocketConsumer):
    """With the channel layer down the socket stays open, and sends the standings afresh
    once it answers again (``layer_back``)."""

    async def connect(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        self.user = self.scope.get("user")
        self.grouped = False
        translation.activate(await in_db_thread(socket_language)(self.user, self.scope))
        html = await in_db_thread(live_html)(self.tournament_id, self.user)
        await self.accept()
        if html is None:
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        await self.join_group()
        await self.send(text_data=html)  # what changed between the page and the socket

    async def join_group(self):
        try:
            await retrying(self.channel_layer.group_add, self.group, self.channel_name)
            self.grouped = True
        except Exception:
            log.warning("Channel layer unavailable: socket of tournament %s", self.tournament_id)

    @property
    def group(self) -> str:
        return group_name(self.tournament_id)

    async def disconnect(self, code):
        if not getattr(self, "grouped", False):
            return
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:
            log.warning("Channel layer unavailable: socket of tournament %s", self.tournament_id)

    async def receive(self, text_data=None, bytes_data=None):
        """The page says nothing over this socket; anything sent is ignored."""

    async def tournament_update(self, event):
        stamp = event.get("stamp")  # one change: rendered once for this process's sockets
        html = await in_db_thread(live_html)(self.tournament_id, self.user, stamp)
        if html is not None:
            await self.send(text_data=html)

    async def layer_back(self, event):
        await self.join_group()
        await self.tournament_update(event)
