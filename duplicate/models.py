"""A day's duplicate and who played which of its games: the game rows hold the results."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class DuplicateDay(models.Model):
    """One UTC day of the daily duplicate, made when the first person plays it."""

    date = models.DateField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        verbose_name = _("daily duplicate")
        verbose_name_plural = _("daily duplicates")

    def __str__(self) -> str:
        return self.date.isoformat()


class DuplicateEntry(models.Model):
    """A person's game of one number of a day: at most one (the constraint says so)."""

    day = models.ForeignKey(DuplicateDay, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="duplicate_entries"
    )
    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, related_name="duplicate_entry"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "number", "created_at"]
        verbose_name = _("duplicate game")
        verbose_name_plural = _("duplicate games")
        constraints = [
            models.UniqueConstraint(
                fields=["day", "number", "user"], name="duplicate_one_game_per_number"
            )
        ]

    def __str__(self) -> str:
        return f"{self.day} #{self.number}: {self.user}"
