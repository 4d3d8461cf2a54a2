"""The easiest opponent: any card from its hand, uniformly at random."""

from ..views import SeatView
from .base import Bot, Budget, require_turn


class RandomBot(Bot):
    name = "random"
    label = "Random (easy)"

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        return self.rng.choice(require_turn(view))
