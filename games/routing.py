"""WebSocket routes."""

from django.urls import path

from games.realtime.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", TableConsumer.as_asgi()),
]
