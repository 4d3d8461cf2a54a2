"""Ratings (OpenSkill Plackett-Luce) for people and bots, one event per player per game, and
leaderboards that staff manage in the admin.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.bots import bot_label
from games.models import Game

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 5.0


def display_rating(mu: float, sigma: float) -> int:
    """The number people see: the conservative ordinal mu - 3 sigma, scaled to start at 1000."""
    return round(1000 + 40 * (mu - 3 * sigma))


def rating_label(username: str, bot: str) -> str:
    """A rating's name on a page: the person's username, or the bot level's."""
    return username or _("Bot (%(level)s)") % {"level": bot_label(bot)}


class PlayerRating(models.Model):
    """The current rating of one person or one bot level."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="rating",
    )
    bot = models.CharField(max_length=16, blank=True)  # an engine bot's name (games.bots)
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot"], condition=~Q(bot=""), name="rating_bot_once"),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot="")) | (Q(user__isnull=True) & ~Q(bot="")),
                name="rating_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return rating_label(self.user.get_username() if self.user_id else "", self.bot)

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def is_provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


class SeatResult(models.Model):
    """A seat's result in one rated game and how it moved the rating (rating events and the
    rows a recompute rebuilds share these columns)."""

    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(help_text=_("1 = first."))
    score = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        abstract = True


class RatingEvent(SeatResult):
    """How one game moved one player's rating: enough to recompute every rating."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_events")
    rating = models.ForeignKey(PlayerRating, on_delete=models.CASCADE, related_name="events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="rating_event_once_per_seat"),
        ]
        indexes = [
            models.Index(fields=["rating", "-id"], name="rating_event_latest"),
            models.Index(fields=["created_at", "id"], name="rating_event_created"),
        ]

    def __str__(self) -> str:
        return f"{self.rating} in game {self.game_id}: rank {self.rank}"

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)


class Leaderboard(models.Model):
    class Opponents(models.TextChoices):
        ANY = "any", _("Any game")
        HUMANS_ONLY = "humans", _("Only games between people")
        WITH_BOTS = "bots", _("Only games with at least one bot")

    class Listed(models.TextChoices):
        """Whose lines a board lists: a board of bots ranks the programs (bot accounts) and
        the site's levels apart from people."""

        PEOPLE = "people", _("People only")
        EVERYONE = "all", _("People and bots")
        BOTS = "bots", _("Bots only")

    name = models.CharField(max_length=80)
    slug = models.SlugField(unique=True)
    description = models.TextField(blank=True)
    season_start = models.DateTimeField(null=True, blank=True)
    season_end = models.DateTimeField(null=True, blank=True)
    target = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Count only games to this target (blank: any).")
    )
    opponents = models.CharField(max_length=8, choices=Opponents.choices, default=Opponents.ANY)
    min_games = models.PositiveIntegerField(default=1)
    listed = models.CharField(
        max_length=8,
        choices=Listed.choices,
        default=Listed.EVERYONE,
        help_text=_("Whose lines are listed: bots are the site's levels and bot accounts."),
    )
    is_active = models.BooleanField(default=True, help_text=_("Archived boards are inactive."))
    is_public = models.BooleanField(default=True)
    closed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The ranked copy of the listed lines (``RankedLine``, ``ratings.ranks``): how many, when
    # it was taken, and the last rating event it had seen (newer events: it is behind).
    lines = models.PositiveIntegerField(default=0, editable=False)
    ranked_at = models.DateTimeField(null=True, blank=True, editable=False)
    ranked_through = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leaderboard_detail", args=[self.slug])


class Standing(models.Model):
    """One rated player's line on one leaderboard, kept with each rated game that counts for
    the board (``ratings.standings``) and rebuilt from the rating events by a recompute.

    ``mu``/``sigma`` are the player's rating after their last game in the board's window;
    a page of a board is one slice of the ``standing_order`` index.
    """

    leaderboard = models.ForeignKey(Leaderboard, on_delete=models.CASCADE, related_name="standings")
    rating = models.ForeignKey(PlayerRating, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    bot = models.CharField(max_length=16, blank=True)  # an engine bot's name (games.bots)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu - 3 sigma: the order of the board."))
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["leaderboard", "rating"], name="standing_once"),
        ]
        indexes = [
            models.Index(fields=["leaderboard", "-ordinal", "-rating"], name="standing_order"),
        ]

    def __str__(self) -> str:
        return f"{self.rating_id} on {self.leaderboard_id}"

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


class RankedLine(models.Model):
    """A listed line of a board with its rank, as of the board's ``ranked_at``: pages are
    ranges of ranks (``ratings.ranks``), so page 400 costs what page 1 does."""

    # No database constraints: ranking 100,000 lines checked 200,000 foreign keys, most of
    # its time; the rows come from ``Standing``'s, and Django's deletions still cascade.
    leaderboard = models.ForeignKey(
        Leaderboard, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    rank = models.PositiveIntegerField()
    rating = models.ForeignKey(
        PlayerRating, on_delete=models.CASCADE, related_name="+", db_constraint=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.CASCADE,
        related_name="+",
        db_constraint=False,
    )
    bot = models.CharField(max_length=16, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    last_played = models.DateTimeField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["leaderboard", "rank"], name="ranked_line_once"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.rating_id} on {self.leaderboard_id}"


class LeaderboardExclusion(models.Model):
    """A person kept off one board, with the reason (shown to staff only)."""

    leaderboard = models.ForeignKey(
        Leaderboard, on_delete=models.CASCADE, related_name="exclusions"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["leaderboard", "user"], name="exclusion_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} excluded from {self.leaderboard}"


class FrozenStanding(models.Model):
    """A row of a closed season's final table: later rating changes do not touch it."""

    leaderboard = models.ForeignKey(Leaderboard, on_delete=models.CASCADE, related_name="frozen")
    rank = models.PositiveIntegerField()
    rating = models.ForeignKey(PlayerRating, null=True, on_delete=models.SET_NULL)
    label = models.CharField(max_length=150)
    display = models.IntegerField()
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    last_played = models.DateTimeField(null=True)

    class Meta:
        ordering = ["leaderboard", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["leaderboard", "rank", "label"], name="frozen_row_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.label} ({self.leaderboard})"


class RatingsRecompute(models.Model):
    """A request, from the admin, to rebuild every rating from the match history; a table
    runner serves it (``ratings.receivers``), whatever process is alive.

    The rebuild goes in chunks that commit as they go (``ratings.recompute``): the games
    rated so far and where the next chunk starts are kept here, so a rebuild whose process
    died resumes where its last chunk ended."""

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    cutoff = models.DateTimeField(
        null=True, blank=True, help_text=_("Games that ended up to here are in the rebuild.")
    )
    after_finished_at = models.DateTimeField(null=True, blank=True, editable=False)
    after_game = models.BigIntegerField(null=True, blank=True, editable=False)
    games_done = models.PositiveIntegerField(default=0, help_text=_("Games gone through."))
    games_total = models.PositiveIntegerField(null=True, blank=True)
    progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    games = models.PositiveIntegerField(null=True, blank=True, help_text=_("Games rated."))

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"Recompute requested {self.requested_at:%Y-%m-%d %H:%M}"

    @property
    def rate(self) -> float | None:
        """Games gone through per second so far (None before the first chunk)."""
        if self.started_at is None or self.progress_at is None or not self.games_done:
            return None
        seconds = (self.progress_at - self.started_at).total_seconds()
        return self.games_done / seconds if seconds > 0 else None


class RebuiltEvent(SeatResult):
    """A rating event as a recompute rebuilds it, kept aside until the rebuild swaps in
    (``ratings.recompute``): pages go on reading ``RatingEvent`` meanwhile. Rows are in the
    order the games ended (by id)."""

    game_id = models.BigIntegerField()
    rating_id = models.BigIntegerField()

    class Meta:
        indexes = [models.Index(fields=["game_id", "seat"], name="rebuilt_event_game")]

    def __str__(self) -> str:
        return f"{self.rating_id} in game {self.game_id} (rebuilt)"


class RatingQueue(models.Model):
    """A finished game waiting to be rated: written in the game's aftermath (so it survives
    the process that ended the game), rated and removed by a ratings lane
    (``ratings.lane``), in the order the games ended."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    finished_at = models.DateTimeField(null=True)
    queued_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["finished_at", "game"], name="rating_queue_order")]

    def __str__(self) -> str:
        return f"Game {self.game_id} to rate"
