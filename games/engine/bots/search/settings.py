"""What makes one search bot differ from another: a dataclass of its settings."""

from __future__ import annotations

from dataclasses import dataclass

from ..base import Budget
from ..policies import PLAYOUT_POLICIES, PlayoutPolicy
from ..values import hand_value, race_value


@dataclass(frozen=True)
class SearchSettings:
    """One configuration of the search (`bot.py`).

    ``budget``: the bot's own budget (deals searched per card, and the clock cap).
    ``opponent_models``: the play-out policies an opponent may play like, by their names in
    ``PLAYOUT_POLICIES``, each with its prior share. ``own_model``: the policy that plays the
    bot's own later cards in a play-out.
    ``inference``: weigh each deal, and draw each opponent's model, by how well the models
    explain the opponents' plays this hand (`inference.py`); without it every deal counts
    the same and models are drawn by their priors. ``race_value``: judge a hand nobody won
    by the race to the target (`values/race.py`) rather than by the lead alone
    (`values/hand.py`). ``exact_cards``: once the bot holds this many cards or fewer, search
    every deal exactly (`endgame.py`) instead of sampling play-outs (0: never).
    """

    name: str
    budget: Budget
    opponent_models: tuple[tuple[str, float], ...]
    own_model: str
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
        named = {model for model, _ in self.opponent_models} | {self.own_model}
        unknown = ", ".join(sorted(named - set(PLAYOUT_POLICIES)))
        if unknown:
            known = ", ".join(PLAYOUT_POLICIES)
            raise ValueError(f"{self.name}: unknown play-out policy {unknown} ({known} exist).")

    @property
    def priors(self) -> tuple[tuple[PlayoutPolicy, float], ...]:
        """The opponent models as policies, each with its prior share."""
        return tuple((PLAYOUT_POLICIES[name], share) for name, share in self.opponent_models)

    @property
    def own_policy(self) -> PlayoutPolicy:
        return PLAYOUT_POLICIES[self.own_model]

    @property
    def hand_end(self):
        """How a play-out judges a hand that ended with nobody at the target."""
        return race_value if self.race_value else hand_value
