"""Who follows whom, and invitations from one friend to another's table.

Following is one way, like lichess: anyone may follow anyone. Two people who follow each
other are friends: only friends see whether the other is online or at a table, and only
friends may invite each other to a table.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followed}"


class TableInvite(models.Model):
    """A friend asked to a waiting table; gone once answered, or with the table's start."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="friend_invites")
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sent_table_invites"
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="table_invites"
    )
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("table invitation")
        verbose_name_plural = _("table invitations")
        constraints = [
            models.UniqueConstraint(fields=["game", "recipient"], name="invite_once_per_table"),
        ]
        indexes = [models.Index(fields=["recipient", "-created_at"], name="invites_of_recipient")]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient} (table {self.game_id})"
