"""Answering a puzzle: the first answer of each person counts, once, whatever the burst.

The answer is checked on the server against the stored view; a card the seat did not hold is
refused and changes nothing. Ratings are Elo (K=32) between the person and the puzzle, both
rows locked (``select_for_update``) in one transaction, the puzzle first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from .models import Puzzle, PuzzleAttempt, PuzzleRecord
from .selectors import served_puzzles

K = 32


class NotInPuzzleHand(ValueError):
    """The card answered is not one the puzzle's seat holds."""


@dataclass
class Answer:
    attempt: PuzzleAttempt
    first: bool  # False: an earlier answer counted, this one changed nothing


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10 ** ((opponent - rating) / 400.0))


def puzzle_answer(*, puzzle_id: int, user, card: str) -> Answer:
    """Record ``user``'s answer ``card`` to the puzzle (the first one only)."""
    puzzle = served_puzzles(user, include_hidden=False).filter(pk=puzzle_id).first()
    if puzzle is None:
        raise Puzzle.DoesNotExist
    if card not in puzzle.view["hand"]:
        raise NotInPuzzleHand(_("That card is not in your hand: choose one of the cards shown."))
    PuzzleRecord.objects.get_or_create(user=user)
    with transaction.atomic():
        puzzle = Puzzle.objects.select_for_update().get(pk=puzzle_id)
        record = PuzzleRecord.objects.select_for_update().get(user=user)
        earlier = PuzzleAttempt.objects.filter(puzzle=puzzle, user=user).first()
        if earlier is not None:
            return Answer(earlier, first=False)
        solved = card == puzzle.solution
        change = K * ((1.0 if solved else 0.0) - expected_score(record.rating, puzzle.rating))
        record.rating += change
        puzzle.rating -= change
        if solved:
            record.solved += 1
            record.streak += 1
            record.best_streak = max(record.best_streak, record.streak)
        else:
            record.failed += 1
            record.streak = 0
        record.save()
        puzzle.save(update_fields=["rating"])
        attempt = PuzzleAttempt.objects.create(
            puzzle=puzzle, user=user, card=card, solved=solved, rating_change=change
        )
    return Answer(attempt, first=True)
