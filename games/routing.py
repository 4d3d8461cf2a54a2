"""WebSocket routes."""

from django.urls import path

from games.realtime.consumers import TableConsumer
from games.realtime.socket_auth import UserReadOnOpening

websocket_urlpatterns = [
    # the user is read in the socket's first hop (games/realtime/socket_auth.py)
    path("ws/games/<int:game_id>/", UserReadOnOpening(TableConsumer.as_asgi())),
]
