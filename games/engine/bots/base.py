"""The interface every computer player implements.

A bot is handed a `SeatView` (never the game state) and a `Budget`, and returns one of the
view's legal cards. Bots are seeded, so a game between bots replays exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from ..views import SeatView


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: search iterations (reproducible) and a wall-clock cap."""

    iterations: int | None = None
    seconds: float | None = None


class Bot(ABC):
    """A computer player. Subclasses set ``name`` and implement ``choose``.

    ``budget`` is the bot's own budget: the site, hints, ``simulate`` and ``ladder`` all use
    it, so what is measured is what people play against. ``searches`` marks a bot that
    thinks long enough to need a worker process.
    """

    name = ""
    label = ""
    budget: Budget | None = None
    searches = False

    def __init__(self, seed: int | str | None = None):
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        """Return the card to play; ``view`` is this bot's seat on its turn."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def require_turn(view: SeatView) -> tuple[int, ...]:
    """Return the legal cards, or raise ValueError if the view is not this bot's turn."""
    cards = view.legal_cards
    if not cards:
        raise ValueError("A bot was asked to play when it is not its turn.")
    return cards
