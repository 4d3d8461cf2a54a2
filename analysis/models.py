"""The analysis of a finished game (queued when it ends, worked by the runners' analysis
lane), and each person's accuracy in it, for their progress page."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class GameAnalysis(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    queued_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True)  # a worker's claim, while running
    attempts = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    cpu_seconds = models.FloatField(null=True, blank=True)
    plays = models.JSONField(default=list, blank=True)  # coins-analysis/1's plays
    accuracy = models.JSONField(default=list, blank=True)  # per seat, 0..100 or null
    luck = models.JSONField(default=list, blank=True)  # [{"hand", "seats": [3 floats]}]

    class Meta:
        verbose_name = _("game analysis")
        verbose_name_plural = _("game analyses")
        indexes = [
            models.Index(fields=["queued_at"], condition=~Q(status="done"), name="analyses_to_do")
        ]

    def __str__(self) -> str:
        return f"Analysis of game {self.game_id} ({self.status})"


class SeatAccuracy(models.Model):
    """One person's accuracy in one analysed game (a row per seat held by a person)."""

    analysis = models.ForeignKey(GameAnalysis, on_delete=models.CASCADE, related_name="seats")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="accuracies"
    )
    seat = models.PositiveSmallIntegerField()
    accuracy = models.FloatField(null=True)
    inaccuracies = models.PositiveSmallIntegerField(default=0)
    mistakes = models.PositiveSmallIntegerField(default=0)
    blunders = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        verbose_name = _("accuracy in a game")
        verbose_name_plural = _("accuracies in games")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_accuracy_per_seat")
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="accuracy_by_person")]

    def __str__(self) -> str:
        return f"{self.user} in game {self.game_id}: {self.accuracy}"
