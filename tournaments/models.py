"""Tournaments staff run from the admin: arenas (continuous pairing for a time window) and
Swiss events (fixed rounds paired by score). See docs/tournaments.md."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.table.options import CLOCKS


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ARENA = "arena", _("Arena")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ARENA)
    name = models.CharField(max_length=80)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Arenas: when pairing stops.")
    )
    rounds = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(20)],
        help_text=_("Swiss: the number of rounds."),
    )
    clock = models.PositiveIntegerField(
        null=True,
        blank=True,
        choices=[(seconds, label) for seconds, label in CLOCKS.items() if seconds is not None],
        default=30,
        help_text=_("Seconds each person has per card; empty: no clock."),
    )
    target = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    is_rated = models.BooleanField(default=True)
    max_players = models.PositiveIntegerField(
        default=60, validators=[MinValueValidator(2)], help_text=_("Entry limit.")
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.UPCOMING)
    current_round = models.PositiveSmallIntegerField(default=0, editable=False)
    cancel_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_status")]
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="arena") | Q(ends_at__isnull=False), name="arena_has_an_end"
            ),
            models.CheckConstraint(
                condition=~Q(kind="swiss") | Q(rounds__isnull=False), name="swiss_has_rounds"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", args=[self.pk])

    @property
    def is_open(self) -> bool:
        """People may still join: before the start, and during an arena."""
        if self.status == self.Status.UPCOMING:
            return True
        return self.status == self.Status.RUNNING and self.kind == self.Kind.ARENA


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    points = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0, help_text=_("Wins in a row."))
    game_points = models.PositiveIntegerField(
        default=0, help_text=_("Card points taken in all games (a tie-break).")
    )
    byes = models.PositiveSmallIntegerField(default=0)
    waiting_since = models.DateTimeField(
        null=True, blank=True, help_text=_("Arenas: since when this person waits for a table.")
    )
    withdrawn = models.BooleanField(default=False)
    removed = models.BooleanField(default=False)
    reason = models.CharField(max_length=200, blank=True, help_text=_("Shown to the player."))
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entry_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"

    @property
    def is_active(self) -> bool:
        return not (self.withdrawn or self.removed)


class TournamentExclusion(models.Model):
    """A person kept out of one tournament by staff, with the reason (shown to them, as a
    removal's is): not listed, cannot join, and an entry they have is removed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="exclusions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, help_text=_("Shown to the player."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournament_exclusion_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} excluded from {self.tournament}"


class TournamentGame(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="tournament_game"
    )
    round = models.PositiveSmallIntegerField(default=0, help_text=_("Swiss: its round."))
    scored = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tournament", "scored"], name="tournament_game_open")]

    def __str__(self) -> str:
        return f"Game {self.game_id} of {self.tournament}"


class TableReadyNotice(models.Model):
    """An outbox row: ``user`` was seated at ``game`` and asked for Web Push; the runners'
    spare time sends "Your tournament table is ready" once (unless they are at the table
    already, or the game is over)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_ready_notices"
    )
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, blank=True)  # sent, at-table, moved-on, nowhere

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="table_ready_once"),
        ]
        indexes = [
            models.Index(fields=["sent_at"], condition=Q(sent_at=None), name="table_ready_due")
        ]

    def __str__(self) -> str:
        return f"{self.user} · game {self.game_id}"
