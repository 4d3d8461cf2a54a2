"""A careful beginner, written from the rules alone (never tuned against our other bots).

It plays the way a new player who has read the rules plays after a few games:

* **last to play**, it sees the whole trick: it takes a trick that holds Coins, or one that
  would bring it to the target, with its cheapest winning card; otherwise it throws its
  cheapest card, Coins last;
* **second to play**, it answers a Coins lead with a higher Coins card if it has one (the
  cheapest such), otherwise it throws its cheapest card, Coins last;
* **leading**, it plays its cheapest card that is not a Coins card.

"Cheapest" is the weakest card; Coins cards count as dearer than any other. The bot is an
honest yardstick for the ladder (``manage.py ladder``): the levels people pick must beat it.
"""

from __future__ import annotations

from ..cards import COINS
from ..tricks import TRICK_POINTS, TRICK_WINNER
from ..views import SeatView
from .base import Bot, Budget, require_turn


def cost(card: int) -> tuple[int, int, int]:
    """Sort key from cheapest to dearest: other suits before Coins, then weakest first."""
    return (card // 12 == COINS, card % 12, card)


def careful_card(hand, trick, my_score: int, target: int) -> int:
    """The careful beginner's card from ``hand`` with ``trick`` already on the table."""
    if len(trick) == 2:
        base = (trick[0] * 48 + trick[1]) * 48
        winning = []
        for card in hand:
            if TRICK_WINNER[base + card] == 2:
                winning.append((card, TRICK_POINTS[base + card]))
        for card, points in sorted(winning, key=lambda pair: cost(pair[0])):
            if points and (points > (card // 12 == COINS) or my_score + points >= target):
                return card
        return min(hand, key=cost)
    if len(trick) == 1:
        lead = trick[0]
        if lead // 12 == COINS:
            higher = [card for card in hand if card // 12 == COINS and card > lead]
            if higher:
                return min(higher)
        return min(hand, key=cost)
    others = [card for card in hand if card // 12 != COINS]
    return min(others or hand, key=cost)


class CarefulBot(Bot):
    name = "careful"
    label = "Careful beginner"

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        return careful_card(hand, view.trick, view.scores[view.seat], view.target)
