"""What makes one search bot differ from another: a dataclass of its settings."""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Budget
from ..policies import PlayoutPolicy
from ..values import hand_value, race_value


@dataclass(frozen=True)
class SearchSettings:
    """One configuration of the search (`bot.py`).

    ``budget``: the bot's own budget (deals searched per card, and the clock cap).
    ``opponent_models``: the play-out policies an opponent may play like, each with its prior
    share. ``own_model``: the policy that plays the bot's own later cards in a play-out.
    ``inference``: weigh each deal, and draw each opponent's model, by how well the models
    explain the opponents' plays this hand (`inference.py`); without it every deal counts
    the same and models are drawn by their priors. ``race_value``: judge a hand nobody won
    by the race to the target (`values/race.py`) rather than by the lead alone
    (`values/hand.py`). ``exact_cards``: once the bot holds this many cards or fewer, search
    every deal exactly (`endgame.py`) instead of sampling play-outs (0: never).
    """

    name: str
    budget: Budget
    opponent_models: tuple[tuple[PlayoutPolicy, float], ...]
    own_model: PlayoutPolicy
    inference: bool = True
    race_value: bool = False
    exact_cards: int = 0

    def __post_init__(self):
        if not self.budget.iterations:
            raise ValueError(f"{self.name}: a search bot's own budget needs its iterations.")
        if not self.opponent_models or any(s <= 0 for _, s in self.opponent_models):
            raise ValueError(f"{self.name}: opponent models need positive prior shares.")
        if self.exact_cards < 0:
            raise ValueError(f"{self.name}: exact_cards cannot be negative.")

    @property
    def hand_end(self):
        """How a play-out judges a hand that ended with nobody at the target."""
        return race_value if self.race_value else hand_value
