"""Which puzzles a person may see, and which one to serve next."""

from __future__ import annotations

from django.db.models import Exists, F, OuterRef, QuerySet
from django.db.models.functions import Abs

from games.history.privacy import seen_by

from .models import START_RATING, Puzzle, PuzzleAttempt, PuzzleRecord


def served_puzzles(viewer, *, include_hidden: bool = False) -> QuerySet[Puzzle]:
    """The puzzles ``viewer`` may see: of public games, and of private games they sat at."""
    puzzles = Puzzle.objects.filter(seen_by(viewer, "game_id"))
    return puzzles if include_hidden else puzzles.filter(hidden=False)


def record_of(user) -> PuzzleRecord:
    """``user``'s record (unsaved and empty when they never answered)."""
    return PuzzleRecord.objects.filter(user=user).first() or PuzzleRecord(
        user=user, rating=START_RATING
    )


def next_puzzle(user, *, mine: bool = False) -> Puzzle | None:
    """A puzzle ``user`` has not answered, the closest to their rating; with ``mine``, the
    positions where they did not play the best card come first."""
    answered = PuzzleAttempt.objects.filter(puzzle=OuterRef("pk"), user=user)
    rating = record_of(user).rating
    pool = (
        served_puzzles(user)
        .exclude(Exists(answered))
        .annotate(distance=Abs(F("rating") - rating))
        .order_by("distance", "pk")
    )
    if mine:
        own = pool.filter(user=user).exclude(played=F("solution")).first()
        if own is not None:
            return own
    return pool.first()
