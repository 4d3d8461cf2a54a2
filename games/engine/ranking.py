"""How a finished game ranks its three seats, for ratings (the site's and the ladder's)."""

from __future__ import annotations


def ranks_of(scores, winner: int | None, leavers=()) -> list[int]:
    """Rank the seats: the winner first, players who left (resigned, or were replaced by a
    bot when they stayed away) last, the others by points.

    Equal points, equal rank.
    """
    leavers = {leavers} if isinstance(leavers, int) else set(leavers)

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat in leavers else 1, 1 if seat == winner else 0, scores[seat])

    return [1 + sum(key(other) > key(seat) for other in range(3)) for seat in range(3)]
