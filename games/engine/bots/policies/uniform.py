"""The easiest opponent: any card from its hand, uniformly at random."""

from random import Random

from ...views import SeatView
from ..base import require_turn


def random_choice(view: SeatView, rng: Random) -> int:
    return rng.choice(require_turn(view))
