"""Scoring a finished tournament game (docs/tournaments.md, "Scoring").

Places come from the seats' scores (the winner first; equal scores share the better place).
Place points: 1st 4, 2nd 2, 3rd 1. Arena streak bonus: a win that follows two or more wins
in a row scores 1 more. A person who left the game (``abandoned_by``) scores nothing and
loses their streak.
"""

from __future__ import annotations

from dataclasses import dataclass

PLACE_POINTS = {1: 4, 2: 2, 3: 1}
STREAK_BONUS = 1
STREAK_FROM = 2  # wins in a row before a win earns the bonus


@dataclass(frozen=True)
class SeatResult:
    seat: int
    score: int


def places(results: list[SeatResult], winner: int | None) -> dict[int, int]:
    """Each seat's place, 1 to 3: the winner first, then by score; ties share a place."""

    def key(result: SeatResult) -> tuple[int, int]:
        return (0 if result.seat == winner else 1, -result.score)

    ranked = sorted(results, key=key)
    placed: dict[int, int] = {}
    for index, result in enumerate(ranked):
        if index and key(result) == key(ranked[index - 1]):
            placed[result.seat] = placed[ranked[index - 1].seat]
        else:
            placed[result.seat] = index + 1
    return placed


def points_for(place: int, *, streak_before: int, arena: bool, left: bool) -> tuple[int, int]:
    """(points earned, streak after) for one person's place in a game."""
    if left:
        return 0, 0
    points = PLACE_POINTS[place]
    if place != 1:
        return points, 0
    if arena and streak_before >= STREAK_FROM:
        points += STREAK_BONUS
    return points, streak_before + 1
