"""WebSocket routes; the table consumer arrives with the real-time table."""

websocket_urlpatterns: list = []
