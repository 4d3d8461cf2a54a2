"""The two shapes of a policy: a play-out policy (fast, on plain int lists, one function per
trick position) and a whole bot that plays one policy function of its view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random

from ...views import SeatView
from ..base import Bot, Budget


@dataclass(frozen=True)
class PlayoutPolicy:
    """How one kind of player chooses a card inside a search's play-outs, and how a search
    asks what an opponent would have played (inference). Cards are ``suit * 12 + strength``.

    ``lead(hand)``; ``second(hand, a)`` answering ``a``; ``last(hand, base, leader, seat,
    scores, target)`` closing the trick ``base = (a * 48 + b) * 48`` led by ``leader``.
    """

    name: str
    lead: Callable[[list[int]], int] = field(repr=False)
    second: Callable[[list[int], int], int] = field(repr=False)
    last: Callable[..., int] = field(repr=False)

    def card(self, hand, before, leader: int, seat: int, scores, target: int) -> int:
        """The card this policy plays from ``hand`` with ``before`` on the table."""
        if not before:
            return self.lead(hand)
        if len(before) == 1:
            return self.second(hand, before[0])
        return self.last(hand, (before[0] * 48 + before[1]) * 48, leader, seat, scores, target)


ChoosePolicy = Callable[[SeatView, Random], int]  # a whole bot's choice: view and its own rng


class PolicyBot(Bot):
    """A bot that plays one policy function of its view (and its seeded rng); it never
    searches, so a budget changes nothing."""

    def __init__(
        self,
        name: str,
        policy: ChoosePolicy,
        seed: int | str | None = None,
        budget: Budget | None = None,
    ):
        super().__init__(seed, budget)
        self.name, self.policy = name, policy

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        return self.policy(view, self.rng)
