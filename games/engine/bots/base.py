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
    """How long a search bot may think: ``iterations`` (deals searched; a bot without them
    thinks its own default number) and ``seconds``, a wall-clock cap. With ``seconds=None``
    the clock is never read, so a seeded bot plays the same cards however busy the machine."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self):
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"A budget needs at least one iteration, not {self.iterations}.")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"A budget's clock cap must be positive, not {self.seconds}.")


class Bot(ABC):
    """A computer player: ``choose`` returns the card to play.

    ``budget`` is the bot's own budget: the site, hints, ``simulate`` and ``ladder`` all use
    it, so what is measured is what people play against (``make_bot(..., budget=...)``
    replaces it, for tests). ``searches`` marks a bot that thinks long enough to need a
    worker process.
    """

    name = ""
    searches = False

    def __init__(self, seed: int | str | None = None, budget: Budget | None = None):
        self.rng = random.Random(seed)
        self.budget = budget

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
