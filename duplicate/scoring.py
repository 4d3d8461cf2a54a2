"""Matchpoints: each result of a duplicate game against every other result of the same game.

Pure functions, no Django. A result is the points the person took (their final score) and
whether they won the game (reached the target first). Against each other result of the same
game a result scores:

* 1 if it beats it: it won and the other did not, or both have the same won-status and it
  took more points;
* 0.5 if they tie: the same won-status and the same points;
* 0 otherwise.

Its matchpoints are the sum over the ``n - 1`` others; its percentage is
``matchpoints / (n - 1) * 100``. A result alone on its game scores 50 %, the average: with
nobody to compare with it has beaten nobody and lost to nobody. A person's total for the day
is the average of their percentages over the games they finished.
"""

from __future__ import annotations

from dataclasses import dataclass

ALONE = 50.0  # the percentage of a result nobody else can be compared with


@dataclass(frozen=True)
class Result:
    points: int
    won: bool


def versus(mine: Result, theirs: Result) -> float:
    """What ``mine`` scores against ``theirs``: 1, 0.5 or 0."""
    if mine.won != theirs.won:
        return 1.0 if mine.won else 0.0
    if mine.points == theirs.points:
        return 0.5
    return 1.0 if mine.points > theirs.points else 0.0


def matchpoints(results: list[Result]) -> list[float]:
    """Each result's matchpoints against all the others (in the order given)."""
    return [
        sum(versus(mine, theirs) for j, theirs in enumerate(results) if j != i)
        for i, mine in enumerate(results)
    ]


def percentages(results: list[Result]) -> list[float]:
    """Each result's matchpoints as a percentage of the most it could have had."""
    others = len(results) - 1
    if others == 0:
        return [ALONE] * len(results)
    return [100 * points / others for points in matchpoints(results)]


def places(scores: list[float]) -> list[int]:
    """1-based places for ``scores`` (higher is better), ties sharing a place (1, 2, 2, 4)."""
    return [1 + sum(other > score for other in scores) for score in scores]
