"""The worth of a hand that ended with nobody at the target, judged by the lead alone."""

from __future__ import annotations

import math

LEAD_SCALE = 4.0  # tanh of the points ahead of the leading opponent / 4
MEAN_SCALE = 6.0


def hand_value(scores, me: int, leader: int = 0, target: int = 0) -> float:
    """Worth to ``me`` of a hand that ended with ``scores`` and nobody at the target, in
    (-1, 1), by the lead alone (who leads next and the target are the race value's business:
    see `race.py`)."""
    a, b = scores[(me + 1) % 3], scores[(me + 2) % 3]
    mine = scores[me]
    ahead = math.tanh((mine - max(a, b)) / LEAD_SCALE)
    mean = math.tanh((2 * mine - a - b) / (2 * MEAN_SCALE))
    return 0.6 * ahead + 0.3 * mean
