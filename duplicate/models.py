"""A day's duplicate and who played which of its games (the game rows hold the results), and
the duplicate rating: each closed day's games rated by matchpoints (``duplicate.rating``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.models import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    display_rating,
)


class DuplicateDay(models.Model):
    """One UTC day of the daily duplicate, made when the first person plays it."""

    date = models.DateField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    rated_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the closed day's results were rated.")
    )

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


class DuplicateRating(models.Model):
    """A person's duplicate rating: OpenSkill over matchpoint comparisons only, apart from the
    game ratings (``ratings``), which it neither reads nor moves."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="duplicate_rating"
    )
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    ordinal = models.FloatField(default=DEFAULT_MU - 3 * DEFAULT_SIGMA)
    results = models.PositiveIntegerField(default=0)
    last_day = models.DateField(null=True, blank=True)

    class Meta:
        verbose_name = _("duplicate rating")
        verbose_name_plural = _("duplicate ratings")
        indexes = [models.Index(fields=["-ordinal", "user"], name="duplicate_rating_order")]

    def __str__(self) -> str:
        return f"{self.user}: {self.display}"

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def is_provisional(self) -> bool:
        return self.results < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


class DuplicateRatingEvent(models.Model):
    """How one game of a closed day moved one person's duplicate rating: their place among
    everyone who finished that game (by matchpoints) and the rating before and after."""

    day = models.ForeignKey(DuplicateDay, on_delete=models.CASCADE, related_name="rating_events")
    number = models.PositiveSmallIntegerField()
    rating = models.ForeignKey(DuplicateRating, on_delete=models.CASCADE, related_name="events")
    place = models.PositiveIntegerField(help_text=_("1 = first; ties share a place."))
    players = models.PositiveIntegerField()
    percent = models.FloatField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["day__date", "number", "pk"]
        verbose_name = _("duplicate rating change")
        verbose_name_plural = _("duplicate rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["day", "number", "rating"], name="duplicate_rated_once_per_game"
            )
        ]

    def __str__(self) -> str:
        return f"{self.rating.user} on {self.day} #{self.number}: {self.place}/{self.players}"

    @property
    def delta(self) -> int:
        after = display_rating(self.mu_after, self.sigma_after)
        return after - display_rating(self.mu_before, self.sigma_before)
