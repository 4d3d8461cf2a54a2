"""A day's duplicate and who played which of its games (the game rows hold the results), and
the duplicate rating: each closed day's games rated by matchpoints (``duplicate.rating``)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.table.options import CLOCKS
from ratings.models import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    display_rating,
)

from . import events


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
    """How one game of a closed day, or one deal of a finished event, moved one person's
    duplicate rating: their place among everyone who finished it holding the same cards
    (by matchpoints) and the rating before and after."""

    day = models.ForeignKey(
        DuplicateDay,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_events",
    )
    event = models.ForeignKey(
        "DuplicateEvent",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="rating_events",
    )
    number = models.PositiveSmallIntegerField(help_text=_("The day's game, or the event's deal."))
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("An event's deal: the seat held (0..2).")
    )
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
            ),
            models.UniqueConstraint(
                fields=["event", "number", "rating"], name="duplicate_rated_once_per_deal"
            ),
            models.CheckConstraint(
                condition=(Q(day=None) & ~Q(event=None)) | (~Q(day=None) & Q(event=None)),
                name="duplicate_rated_day_or_event",
            ),
        ]

    def __str__(self) -> str:
        occasion = self.day or self.event
        return f"{self.rating.user} on {occasion} #{self.number}: {self.place}/{self.players}"

    @property
    def delta(self) -> int:
        after = display_rating(self.mu_after, self.sigma_after)
        return after - display_rating(self.mu_before, self.sigma_before)


class DuplicateEvent(models.Model):
    """A duplicate event between people (``duplicate.event_services``): everyone who joined,
    and bots filling to a multiple of three, play the event's deals, one a round, each deal
    at several tables with different trios (``duplicate.events.schedule``)."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open to join")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(max_length=100)
    target = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    bot = models.CharField(
        max_length=20, blank=True, help_text=_("The bots' level; empty: the daily duplicate's.")
    )
    deals = models.PositiveSmallIntegerField(
        default=events.DEALS,
        validators=[MinValueValidator(events.MIN_DEALS), MaxValueValidator(events.MAX_DEALS)],
        help_text=_("How many deals are played, one a round (3 to 12)."),
    )
    clock = models.PositiveIntegerField(
        null=True,
        blank=True,
        choices=[(seconds, label) for seconds, label in CLOCKS.items() if seconds is not None],
        help_text=_(
            "Seconds each person has per card; empty: no clock. An absent person's cards are "
            "played for them, then a bot takes their seat, as at any table."
        ),
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    round = models.PositiveSmallIntegerField(default=0, help_text=_("The deal being played."))
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rated_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the finished event's results were rated.")
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("duplicate event")
        verbose_name_plural = _("duplicate events")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("duplicate_event", args=[self.pk])


class EventEntry(models.Model):
    """A person (or, with no user, a bot filling the event) in an event; ``player`` is their
    number in the schedule, given when the event starts."""

    event = models.ForeignKey(DuplicateEvent, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="duplicate_event_entries",
    )
    player = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "player", "pk"]
        verbose_name = _("duplicate event entry")
        verbose_name_plural = _("duplicate event entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "user"], name="duplicate_event_one_entry"),
            models.UniqueConstraint(
                fields=["event", "player"], name="duplicate_event_one_player_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.user or 'bot'}"


class EventTable(models.Model):
    """One table of one deal (round) of an event; who sits where is the schedule's."""

    event = models.ForeignKey(DuplicateEvent, on_delete=models.CASCADE, related_name="tables")
    deal = models.PositiveSmallIntegerField()  # 1..3, also the round
    number = models.PositiveSmallIntegerField()  # 0..tables-1
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="event_table")

    class Meta:
        ordering = ["event", "deal", "number"]
        verbose_name = _("duplicate event table")
        verbose_name_plural = _("duplicate event tables")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "deal", "number"], name="duplicate_event_one_table"
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} deal {self.deal} table {self.number + 1}"


class DuplicateExclusion(models.Model):
    """A person kept off the listed standings of one day or one event, or (neither given)
    off the duplicate rating's board, with the reason (shown to staff only). Their results
    still count for the others: they held the same cards."""

    day = models.ForeignKey(
        DuplicateDay, on_delete=models.CASCADE, null=True, blank=True, related_name="exclusions"
    )
    event = models.ForeignKey(
        DuplicateEvent, on_delete=models.CASCADE, null=True, blank=True, related_name="exclusions"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("duplicate exclusion")
        verbose_name_plural = _("duplicate exclusions")
        constraints = [
            models.UniqueConstraint(fields=["day", "user"], name="duplicate_day_exclusion_once"),
            models.UniqueConstraint(
                fields=["event", "user"], name="duplicate_event_exclusion_once"
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=Q(day=None, event=None),
                name="duplicate_board_exclusion_once",
            ),
            models.CheckConstraint(
                condition=Q(day=None) | Q(event=None), name="duplicate_exclusion_one_place"
            ),
        ]

    def __str__(self) -> str:
        place = self.day or self.event or _("the duplicate rating")
        return f"{self.user} excluded from {place}"
