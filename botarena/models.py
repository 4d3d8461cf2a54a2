"""The bot arena: its entrants (bot accounts that opted in, and the site's three levels),
the games it seated and who sat at them, and the row that pairing locks."""

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Entrant(models.Model):
    """One arena entrant: a bot account (``user``) or a site level (``level``), with its
    counts of arena games (kept as its games are seated and scored)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("In the arena")
        PAUSED = "paused", _("Paused (lost a game to its clock)")
        LEFT = "left", _("Left the arena")
        BANNED = "banned", _("Banned")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="arena_entrant",
    )
    level = models.CharField(max_length=8, blank=True)  # a site level: "easy", "medium", "hard"
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.ACTIVE)
    reason = models.CharField(max_length=200, blank=True, help_text=_("Why it is paused."))
    owner = models.CharField(
        _("owner"), max_length=40, blank=True, help_text=_("Who runs the bot, as it says.")
    )
    games = models.PositiveIntegerField(default=0, help_text=_("Arena games seated at."))
    played = models.PositiveIntegerField(default=0, help_text=_("Arena games ended."))
    wins = models.PositiveIntegerField(default=0)
    clock_losses = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["level"], condition=~Q(level=""), name="arena_level_once"
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(level=""))
                | (Q(user__isnull=True) & ~Q(level="")),
                name="arena_user_xor_level",
            ),
        ]

    def __str__(self) -> str:
        return self.user.get_username() if self.user_id else f"{self.level} (site bot)"

    @property
    def key(self) -> str:
        """Its name for pairing (``botarena.trios``)."""
        return f"u{self.user_id}" if self.user_id else self.level


class Arena(models.Model):
    """One row, locked by whoever pairs: pairings happen one after the other."""

    paired_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return "Bot arena"


class ArenaGame(models.Model):
    """A game the arena seated; ``scored`` once its end is counted."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    trio = models.CharField(max_length=80, db_index=True)  # ``trios.trio_key`` of its entrants
    scored = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["scored"], condition=Q(scored=False), name="arena_running")]

    def __str__(self) -> str:
        return f"Arena game {self.game_id}"


class ArenaSeat(models.Model):
    """An entrant at an arena game. An account is ``live`` at one game at most: the database
    refuses a second, whatever the schedulers do."""

    arena_game = models.ForeignKey(ArenaGame, on_delete=models.CASCADE, related_name="seats")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    number = models.PositiveSmallIntegerField()
    live = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=Q(live=True), name="arena_account_one_live_game"
            ),
            models.UniqueConstraint(fields=["arena_game", "number"], name="arena_seat_once"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} at {self.arena_game}"


class BotAccount(User):
    """Bot accounts, for the admin (a proxy: no table of its own)."""

    class Meta:
        proxy = True
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")
