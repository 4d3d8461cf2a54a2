"""A player's public face on the site: the name shown at the table and the preferred language."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("What other players see instead of your username."),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Used while you are logged in; blank follows your browser."),
    )
    show_hints = models.BooleanField(
        _("offer hints"),
        default=True,
        help_text=_("Show a Hint button on your turn in casual (unrated) games."),
    )
    turn_sound = models.BooleanField(
        _("sound on your turn"),
        default=False,
        help_text=_("Play a short sound when it becomes your turn at a table."),
    )
    trick_pause = models.CharField(
        _("pause after a trick"),
        max_length=6,
        choices=[("fast", _("Fast")), ("normal", _("Normal")), ("slow", _("Slow"))],
        default="normal",
        help_text=_(
            "How long a finished trick stays on the table before a bot leads the next one. "
            "At a table with other people, the bots wait for the slowest choice."
        ),
    )
    turn_email = models.BooleanField(
        _("e-mail me when it is my turn"),
        default=False,
        help_text=_("In games with a day per card, while you are not at the table."),
    )
    turn_push = models.BooleanField(
        _("notify this device when it is my turn"),
        default=False,
        help_text=_("In games with a day per card, a notification from your browser."),
    )
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        editable=False,
        help_text=_("Plays only through the Bot API, marked as a bot and rated apart; for good."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # When a page last served this person (at most once a minute: ``SeenMiddleware``), so
    # friends see who is online.
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True, editable=False)
    # The username's lookalike key (accounts.names.lookalike_key), unique: two names that look
    # alike cannot both exist. Empty (NULL) only for users who already looked like an older
    # user's name when the key was introduced.
    username_skeleton = models.CharField(
        _("username skeleton"), max_length=600, null=True, blank=True, unique=True, editable=False
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
