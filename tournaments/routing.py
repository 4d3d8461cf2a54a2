"""WebSocket routes of tournaments (combined with games' in coins_site/asgi.py)."""

from channels.auth import AuthMiddleware
from django.urls import path

from .consumers import StandingsConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:tournament_id>/", AuthMiddleware(StandingsConsumer.as_asgi())),
]
