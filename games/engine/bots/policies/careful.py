"""The careful beginner, written from the rules alone (never tuned against our other bots).

It plays the way a new player who has read the rules plays after a few games:

* **last to play**, it sees the whole trick: it takes a trick that holds Coins, or one that
  would bring it to the target, with its cheapest winning card; otherwise it throws its
  cheapest card, Coins last;
* **second to play**, it answers a Coins lead with a higher Coins card if it has one (the
  cheapest such), otherwise it throws its cheapest card, Coins last;
* **leading**, it plays its cheapest card that is not a Coins card.

"Cheapest" is the weakest card; Coins cards count as dearer than any other. The bot is an
honest yardstick for the ladder (``manage.py ladder``): the levels people pick must beat it.

``careful_card`` says it as the rules do; ``CAREFUL`` plays exactly the same cards on plain
int lists, fast, for the search bots' play-outs (a test holds the two together).
"""

from __future__ import annotations

from random import Random

from ...cards import COINS
from ...tricks import TRICK_POINTS, TRICK_WINNER
from ...views import SeatView
from ..base import require_turn
from .policy import PlayoutPolicy


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


def careful_choice(view: SeatView, rng: Random) -> int:
    """The careful bot's card: it reads only its view (and never its rng)."""
    hand = require_turn(view)
    return careful_card(hand, view.trick, view.scores[view.seat], view.target)


# The careful beginner's order as a table, cheapest first: other suits before Coins, weakest
# first (Coins are 12..23).
COST = tuple((1000 if 12 <= c < 24 else 0) + (c % 12) * 4 + c // 12 for c in range(48))


def careful_lead(hand) -> int:
    plain = [c for c in hand if not 12 <= c < 24]
    return min(plain or hand, key=COST.__getitem__)


def careful_second(hand, a: int) -> int:
    higher = [c for c in hand if a < c < 24] if 12 <= a < 24 else None
    return min(higher) if higher else min(hand, key=COST.__getitem__)


def careful_last(hand, base: int, leader: int, seat: int, scores, target: int) -> int:
    """Take Coins (or the game) with the cheapest winning card, else throw the cheapest."""
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    my_score = scores[seat]
    card, best = -1, 10**9
    for c in hand:
        if winners[base + c] == 2:
            points = trick_points[base + c]
            takes = points > (12 <= c < 24) or my_score + points >= target
            if points and takes and COST[c] < best:
                card, best = c, COST[c]
    return card if card >= 0 else min(hand, key=COST.__getitem__)


CAREFUL = PlayoutPolicy("careful", careful_lead, careful_second, careful_last)
