"""Rows for people at tables: who is there right now (and, further on, what they say).

Imported by ``games.models``, so Django finds these models with the rest of the app's.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
    # Where a signed-out viewer connects from (caps per address), and the page's tab: a tab
    # that reconnects replaces its own row, so a socket that died never counts against a cap.
    address = models.GenericIPAddressField(null=True, blank=True)
    tab = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["game", "seen_at"]),
            models.Index(fields=["user", "seen_at"], name="presence_user"),
            models.Index(
                fields=["address", "seen_at"],
                name="presence_anonymous_address",
                condition=models.Q(user__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user or 'visitor'} at game {self.game_id}"


class ChatMessage(models.Model):
    """Something said at a table: free text or a preset phrase, with the move it was said at.

    The players and the spectators of a table talk in separate rooms.
    """

    class Room(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    room = models.CharField(max_length=10, choices=Room.choices)
    text = models.CharField(max_length=200, blank=True)
    preset = models.CharField(max_length=16, blank=True, help_text=_("A preset phrase's key."))
    moves = models.PositiveIntegerField(help_text=_("Cards played when it was said."))
    hidden = models.BooleanField(default=False, help_text=_("Hidden by staff."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        indexes = [
            models.Index(fields=["game", "room", "id"]),
            models.Index(fields=["user", "created_at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(text="") | ~models.Q(preset=""), name="chat_says_something"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} at game {self.game_id}: {self.text or self.preset}"


class ChatMute(models.Model):
    """``user`` no longer sees what ``muted`` says, at any table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("muted")), name="chat_mute_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} muted {self.muted}"


class ChatReport(models.Model):
    """A chat message someone asked staff to look at."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ["resolved", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self) -> str:
        return f"Report of message {self.message_id} by {self.reporter}"


class Rematch(models.Model):
    """An offer to play again with the same people in the same seats (bots stay bots).

    The new table starts once every person of the finished game has accepted, unless
    someone declines or the offer expires first.
    """

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rematch")
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    accepted = models.JSONField(default=list, help_text=_("Seats that accepted."))
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    new_game = models.OneToOneField(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch_of",
    )
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Rematch of game {self.game_id}"


class MatchQueue(models.Model):
    """One row per set of find-a-game options: locked while someone is matched, so two
    people pressing "Find a game" at once, on any servers, end up at one table."""

    target = models.PositiveSmallIntegerField()
    clock = models.PositiveIntegerField(default=0, help_text=_("Seconds per card; 0: none."))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["target", "clock"], name="match_queue_once")]

    def __str__(self) -> str:
        return f"Queue to {self.target}, clock {self.clock}"
