"""The race to the target: how likely each player is to win the game from the scores at the
end of a hand, by how far each still is from the target and who leads the next hand.

``hand_value`` (`hand.py`) judges a hand's end by the lead alone; what wins is the race: two
points short of the target is much better than three when the next hand hands out twelve,
and leading the next hand is worth something. The chances are read from the generated
table `data/race_table.py` (``manage.py race_table``, `lab/race_table.py`); positions
farther from the target than the table reaches fall back to ``hand_value``.
"""

from __future__ import annotations

from ..data.race_table import CHANCES, MAX_DISTANCE
from .hand import hand_value


def race_index(scores, leader: int, target: int) -> int | None:
    """Where the chances of the position start in ``CHANCES`` (three of them, seats in order
    from ``leader``), or None when a player is farther from the target than the table."""
    a = target - scores[leader]
    b = target - scores[(leader + 1) % 3]
    c = target - scores[(leader + 2) % 3]
    if a > MAX_DISTANCE or b > MAX_DISTANCE or c > MAX_DISTANCE:
        return None
    d = MAX_DISTANCE
    return 3 * (((a - 1) * d + b - 1) * d + c - 1)


def race_chances(scores, leader: int, target: int) -> tuple[float, float, float]:
    """Each seat's chance to win the game from the end of a hand with ``scores`` (nobody at
    the target) and ``leader`` to lead the next one."""
    i = race_index(scores, leader, target)
    if i is None:
        return tuple((hand_value(scores, seat) + 1) / 2 for seat in range(3))
    chances = [0.0, 0.0, 0.0]
    for k in range(3):
        chances[(leader + k) % 3] = CHANCES[i + k]
    return tuple(chances)


def race_value(scores, me: int, leader: int, target: int) -> float:
    """Worth to ``me`` of a hand that ended with ``scores`` (nobody at the target) and
    ``leader`` to lead the next one: ``2 p - 1`` for ``me``'s chance ``p`` to win the game."""
    i = race_index(scores, leader, target)
    if i is None:
        return hand_value(scores, me)
    return 2.0 * CHANCES[i + (me - leader) % 3] - 1.0
