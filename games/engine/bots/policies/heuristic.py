"""A rule-of-thumb opponent that looks one trick ahead.

For each card in hand it estimates what the trick will bring, averaged over how the seats
still to play might answer (every unseen card when one seat is left to play, a fixed sample
of unseen pairs when leading), and plays the card with the best outcome:

* points won are good, points won by an opponent are bad, worse when that opponent is the
  closest to the target, and a trick that ends the game counts for far more than its points;
* playing a card has a cost: a Coins card could score later, and a high card could win a pair.

So it wins tricks that carry Coins cheaply, keeps Coins away from the leader, and sheds low
cards when it cannot win. It reads only its own view: its hand and the cards played.
"""

from __future__ import annotations

from random import Random

from ...cards import CARD_POINTS
from ...tricks import TRICK_POINTS, TRICK_WINNER, trick_index
from ...views import SeatView
from ..base import require_turn

GAME_DECIDING = 100.0  # a trick that ends the game outweighs any number of points
COIN_KEEP_VALUE = 0.45  # a Coins card in hand is a point we may still win with it
STRENGTH_KEEP_VALUE = 0.12  # an Ace is worth keeping a little more than a 2
LEAD_SAMPLES = 40


def heuristic_choice(view: SeatView, rng: Random) -> int:
    """The card with the best average trick outcome, less what keeping it is worth."""
    hand = require_turn(view)
    if len(hand) == 1:
        return hand[0]
    answers = possible_answers(view, rng)
    value = outcome_values(view)
    leader = view.leader

    def score(card: int) -> float:
        total = 0.0
        for answer in answers:
            cards = (*view.trick, card, *answer)
            index = trick_index(*cards)
            total += value[(leader + TRICK_WINNER[index]) % 3][TRICK_POINTS[index]]
        keep = COIN_KEEP_VALUE * CARD_POINTS[card] + STRENGTH_KEEP_VALUE * (card % 12) / 11
        return total / len(answers) - keep

    return max(hand, key=score)


def possible_answers(view: SeatView, rng: Random) -> list[tuple[int, ...]]:
    """Return the card tuples the seats after us might play, equally likely."""
    unseen = view.unseen_cards()
    to_come = 2 - len(view.trick)
    if to_come == 0:
        return [()]
    if to_come == 1:
        return [(card,) for card in unseen]
    return [tuple(rng.sample(unseen, 2)) for _ in range(LEAD_SAMPLES)]


def outcome_values(view: SeatView) -> list[list[float]]:
    """Return ``value[winner seat][points]``: how good that trick outcome is for us."""
    me, scores, target = view.seat, view.scores, view.target
    leader_score = max(scores[s] for s in range(3) if s != me)
    values = []
    for seat in range(3):
        row = []
        for points in range(4):
            reaches = points and scores[seat] + points >= target
            if seat == me:
                row.append(points + (GAME_DECIDING if reaches else 0.0))
            else:
                threat = 1.0 if scores[seat] == leader_score else 0.5
                row.append(-points * threat - (GAME_DECIDING if reaches else 0.0))
        values.append(row)
    return values
