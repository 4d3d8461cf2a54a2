"""Database rows for games: the truth from which every engine state is rebuilt.

A game has three seats, then hands (each with its dealt deck), tricks and card plays. Each
play also carries its game and a running ``sequence`` number, so a game replays from one
ordered query.
"""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from common.urls import reverse_kept


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class Game(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    target = models.PositiveSmallIntegerField(
        default=10, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.WAITING)
    is_public = models.BooleanField(default=True)
    is_rated = models.BooleanField(
        default=True, help_text=_("Rated games count for ratings and offer no hints.")
    )
    invite_token = models.CharField(max_length=32, default=new_invite_token, unique=True)
    seed = models.CharField(max_length=64, help_text=_("Secret seed of the shuffles."))
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    abandoned_by = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Seat of the player who left a running game.")
    )
    moves = models.PositiveIntegerField(default=0, help_text=_("Cards played so far."))
    to_play = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Seat due to play; kept with each move.")
    )
    clock = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Seconds each person has per card; empty: no clock.")
    )
    turn_deadline = models.DateTimeField(
        null=True, blank=True, help_text=_("When the person to play runs out of time.")
    )
    due_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the table next needs the server: a bot's card, a clock, a check."),
    )
    from_queue = models.BooleanField(
        default=False, help_text=_("Made by the find-a-game queue for people who asked for it.")
    )
    queue_fill_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When bots take the seats nobody came for.")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="games_created",
    )
    with_bots = models.BooleanField(
        default=False,
        db_default=False,
        editable=False,
        help_text=_("A bot held a seat when the game was dealt (kept for the admin's filter)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        # Staff who may view games see a running game's dealt cards only with this one.
        permissions = [("view_hidden_cards", _("Can see the cards still in hand in running games"))]
        indexes = [
            models.Index(fields=["status", "is_public"]),
            models.Index(fields=["created_at", "id"], name="game_created"),  # admin's order
            models.Index(fields=["with_bots", "created_at", "id"], name="game_with_bots"),
            models.Index(fields=["due_at"], condition=Q(due_at__isnull=False), name="game_due_at"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(target__gte=1, target__lte=99), name="game_target_1_99"
            ),
            models.CheckConstraint(condition=Q(first_dealer__lte=2), name="game_first_dealer_seat"),
            models.CheckConstraint(condition=Q(winner_seat__lte=2), name="game_winner_seat"),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse_kept("game_table", self.pk)

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.IN_PROGRESS

    @property
    def was_dealt(self) -> bool:
        """False for a table still waiting, or closed before its three seats were filled."""
        return self.started_at is not None

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABANDONED)


BOT_PERSONAS = ("Alba", "Bruno", "Carmen")  # one name per seat, so two bots can be told apart


class Seat(models.Model):
    """A place at the table: empty, a person, or a bot of some level."""

    # db_index=False: the unique (game, number) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot = models.CharField(max_length=16, blank=True)  # an engine bot's name (games.bots)
    score = models.PositiveSmallIntegerField(default=0)
    placeholder = models.BooleanField(
        default=False,
        help_text=_(
            "A bot holding a queue seat: a person who comes before the first card takes it."
        ),
    )
    away_since = models.DateTimeField(
        null=True, blank=True, help_text=_("Queue tables: since when this person's page is gone.")
    )
    auto_in_row = models.PositiveSmallIntegerField(
        default=0, help_text=_("Cards in a row the server played for this absent person.")
    )
    stand_in = models.CharField(
        max_length=16,
        blank=True,
        help_text=_("The bot playing for this person, who left, for the rest of the game."),
    )
    # Copies of the game's facts a player's history filters and orders on, so that a page of
    # it is one slice of an index on the seats, whatever the player's number of games
    # (``games.history.games``). Set when the game is dealt and when it ends.
    started_at = models.DateTimeField(null=True, blank=True, editable=False)
    target = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    with_bots = models.BooleanField(default=False, editable=False)
    outcome = models.CharField(
        max_length=9,
        blank=True,
        editable=False,
        help_text=_("won, lost or abandoned once the game is over; blank while it runs."),
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="seat_user_once"
            ),
            models.CheckConstraint(condition=Q(number__lte=2), name="seat_number_0_2"),
            models.CheckConstraint(
                condition=Q(user__isnull=True) | Q(bot=""), name="seat_user_or_bot"
            ),
        ]
        indexes = [
            models.Index(
                fields=["user", "-started_at", "-game"],
                condition=Q(started_at__isnull=False),
                name="seat_history",
            ),
            models.Index(
                fields=["user", "outcome", "-started_at", "-game"],
                condition=Q(started_at__isnull=False),
                name="seat_history_outcome",
            ),
            models.Index(
                fields=["user", "with_bots", "-started_at", "-game"],
                condition=Q(started_at__isnull=False),
                name="seat_history_bots",
            ),
            models.Index(
                fields=["user", "target", "-started_at", "-game"],
                condition=Q(started_at__isnull=False),
                name="seat_history_target",
            ),
            models.Index(  # tables not dealt yet, by person (the admin's search)
                fields=["user", "game"], condition=Q(started_at__isnull=True), name="seat_waiting"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot

    @property
    def is_bot(self) -> bool:
        return bool(self.bot)

    @property
    def bot_name(self) -> str:
        """The name a bot plays under at this seat, e.g. "Bruno (bot)"."""
        return f"{BOT_PERSONAS[self.number]} (bot)"


class PlayerStats(models.Model):
    """A person's counts of ended games, kept as each game ends (the profile reads one row)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    finished = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    abandoned = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name_plural = _("player stats")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.won}/{self.finished}"


class Hand(models.Model):
    """One deal: its dealer and the shuffled deck in dealing order (48 codes)."""

    # db_index=False: the unique (game, number) serves every lookup by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    deck = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="hand_number_unique"),
            models.CheckConstraint(condition=Q(dealer__lte=2), name="hand_dealer_seat"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"


class Trick(models.Model):
    """A trick, created with its first card; winner and points are set by its third."""

    # db_index=False: the unique (hand, number) serves every lookup by hand.
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="tricks", db_index=False)
    number = models.PositiveSmallIntegerField()
    leader = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["hand", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="trick_number_unique"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=16), name="trick_number_1_16"
            ),
            models.CheckConstraint(condition=Q(leader__lte=2), name="trick_leader_seat"),
            models.CheckConstraint(condition=Q(winner__lte=2), name="trick_winner_seat"),
            models.CheckConstraint(condition=Q(points__lte=3), name="trick_points_0_3"),
        ]

    def __str__(self) -> str:
        return f"Trick {self.number} of hand {self.hand_id}"


class Play(models.Model):
    """One card played: who, which, its place in the trick and in the game, and when."""

    # No index of their own: the unique (game, sequence), (hand, card) and (trick, order)
    # serve every lookup by one of them, and a move writes three index entries fewer.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plays", db_index=False)
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="plays", db_index=False)
    trick = models.ForeignKey(Trick, on_delete=models.CASCADE, related_name="plays", db_index=False)
    sequence = models.PositiveIntegerField(help_text=_("0-based order of the play in the game."))
    order = models.PositiveSmallIntegerField(help_text=_("0-based order of the play in its trick."))
    seat = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=3)
    auto = models.BooleanField(
        default=False, help_text=_("Played by the server for a person whose clock ran out.")
    )
    played_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="play_sequence_unique"),
            models.UniqueConstraint(fields=["hand", "card"], name="play_card_once_per_hand"),
            models.UniqueConstraint(fields=["trick", "seat"], name="play_seat_once_per_trick"),
            models.UniqueConstraint(fields=["trick", "order"], name="play_order_unique"),
            models.CheckConstraint(condition=Q(seat__lte=2), name="play_seat_0_2"),
            models.CheckConstraint(condition=Q(order__lte=2), name="play_order_0_2"),
        ]

    def __str__(self) -> str:
        return f"{self.card} by seat {self.seat} (game {self.game_id}, play {self.sequence})"
