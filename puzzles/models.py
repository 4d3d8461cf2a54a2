"""Puzzles: positions of real games where one card was clearly best, each stored as the view
its seat had at that moment (never another seat's unplayed cards), and people's answers."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

START_RATING = 1500.0


class Puzzle(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="puzzles")
    move = models.PositiveIntegerField()  # index of the card in the game's play order
    seat = models.PositiveSmallIntegerField()
    # The person in that seat (null for a bot): "learn from your mistakes" finds theirs.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="puzzles_from_my_games",
    )
    hand_number = models.PositiveSmallIntegerField()
    trick_number = models.PositiveSmallIntegerField()
    solution = models.CharField(max_length=3)  # the card code that was clearly best
    played = models.CharField(max_length=3)  # the card played in the real game
    values = models.JSONField()  # card code -> win chance 0..1, for every legal card
    view = models.JSONField()  # SeatView.to_dict() of ``seat`` at that moment, plus "played"
    rating = models.FloatField(default=START_RATING)
    hidden = models.BooleanField(default=False, help_text=_("Hidden puzzles are never served."))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        constraints = [models.UniqueConstraint(fields=["game", "move"], name="one_puzzle_per_move")]

    def __str__(self) -> str:
        return f"Puzzle {self.pk}: game {self.game_id}, move {self.move}"

    @property
    def was_missed(self) -> bool:
        return self.played != self.solution


class PuzzleAttempt(models.Model):
    """A person's first answer to a puzzle: the only one that counts."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    card = models.CharField(max_length=3)
    solved = models.BooleanField()
    rating_change = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("puzzle attempt")
        verbose_name_plural = _("puzzle attempts")
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "user"], name="one_attempt_per_person")
        ]

    def __str__(self) -> str:
        return f"{self.user} on puzzle {self.puzzle_id}: {self.card}"


class PuzzleRecord(models.Model):
    """One person's puzzle record and rating."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_record"
    )
    rating = models.FloatField(default=START_RATING)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    streak = models.PositiveIntegerField(default=0)
    best_streak = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("puzzle record")
        verbose_name_plural = _("puzzle records")

    def __str__(self) -> str:
        return f"{self.user}: {self.solved} solved, {self.failed} failed"
