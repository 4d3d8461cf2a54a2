"""Win rates with their uncertainty."""

from __future__ import annotations

from math import sqrt

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / games`` (0..1 both ends); (0, 1)
    with no games."""
    if games <= 0:
        return 0.0, 1.0
    rate = wins / games
    middle = rate + z * z / (2 * games)
    spread = z * sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return max(0.0, (middle - spread) / scale), min(1.0, (middle + spread) / scale)
