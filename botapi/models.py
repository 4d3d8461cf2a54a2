"""Personal API tokens (stored hashed, shown once) and the games opened through the API."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Scope(models.TextChoices):
    BOT_PLAY = "bot:play", _("Play games as a bot (bot:play)")
    CHALLENGE_WRITE = "challenge:write", _("Send and answer challenges (challenge:write)")


class ApiToken(models.Model):
    """A personal token: ``Authorization: Bearer <token>``. Only its SHA-256 is kept; the
    token itself is shown once, when it is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(
        max_length=16, editable=False, help_text=_("The token's first characters, to tell it.")
    )
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="api_token_of_user")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class ApiGame(models.Model):
    """A game opened through the API, and the token that opened it (its limits count it)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="games")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"], name="api_game_of_user")]

    def __str__(self) -> str:
        return f"API game {self.game_id}"


class Challenge(models.Model):
    """An invitation from one account to another to play a game together: answered by the
    challenged (accept or decline), taken back by the challenger (cancel), or expired after
    ``COINS_API_CHALLENGE_TTL`` seconds open. Accepted once: the game it made is kept."""

    class Status(models.TextChoices):
        OPEN = "created", _("open")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELED = "canceled", _("canceled")
        EXPIRED = "expired", _("expired")

    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent"
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received"
    )
    target = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=False)
    clock = models.PositiveIntegerField(null=True, blank=True)
    seats = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [
            models.Index(fields=["challenged", "status"], name="challenge_of_challenged"),
            models.Index(fields=["challenger", "status"], name="challenge_of_challenger"),
        ]

    def __str__(self) -> str:
        return f"{self.challenger} → {self.challenged} ({self.status})"
