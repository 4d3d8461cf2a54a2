"""Rows for people at tables: who is there right now (and, further on, what they say).

Imported by ``games.models``, so Django finds these models with the rest of the app's.
"""

from django.conf import settings
from django.db import models


class Presence(models.Model):
    """One open socket at a table, refreshed by its socket while it stays open.

    A row whose ``seen_at`` is older than ``presence.STALE_AFTER`` belongs to a socket
    whose process died without closing it, and counts for nothing.
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="presences")
    channel = models.CharField(max_length=120, unique=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user or 'visitor'} at game {self.game_id}"
