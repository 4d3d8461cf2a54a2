"""Where to tell a person that it is their turn: their browsers' push subscriptions, and the
notices waiting to go out (an outbox: a notice survives a restart and goes out once)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One browser's Web Push address (``PushManager.subscribe``), for one person."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_sent_at = models.DateTimeField(_("last sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"{self.user} ({self.endpoint[:40]}…)"


class TurnNotice(models.Model):
    """It became ``user``'s turn in ``game`` after ``moves`` cards: tell them, once, if it is
    still their turn when the notice is due and they are not at the table."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_notices"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="turn_notices")
    moves = models.PositiveIntegerField()
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, blank=True)  # sent, at-table, moved-on, nowhere

    class Meta:
        verbose_name = _("turn notice")
        verbose_name_plural = _("turn notices")
        constraints = [
            models.UniqueConstraint(fields=["user", "game", "moves"], name="one_notice_per_turn")
        ]
        indexes = [
            models.Index(fields=["due_at"], condition=Q(sent_at=None), name="notices_to_send")
        ]

    def __str__(self) -> str:
        return f"{self.user} · game {self.game_id} · {self.moves}"
