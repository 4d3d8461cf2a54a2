"""expert-v3: expert-v2's search (`expert.py`) with play-outs that judge the end of a hand by
the race to the target (`race.py`) instead of by the lead alone.

A play-out in which the bot reaches the target is worth +1 and one in which an opponent does
is worth -1; one that ends the hand with nobody at the target is worth ``2 p - 1``, where
``p`` is the bot's chance of winning the game from there: by how far each player still is
from the target and who leads the next hand (`race_table.py`).
"""

from __future__ import annotations

from itertools import combinations

from ..views import SeatView
from .endgame import card_values
from .expert import ExpertBot, model_weights, opponent_plays
from .lookahead import hand_value
from .playouts import unseen_cards_and_sizes
from .race_table import CHANCES, MAX_DISTANCE


def race_value(scores, me: int, leader: int, target: int) -> float:
    """Worth to ``me`` of a hand that ended with ``scores`` (nobody at the target) and
    ``leader`` to lead the next one: ``2 p - 1`` for ``me``'s chance ``p`` to win the game."""
    a = target - scores[leader]
    b = target - scores[(leader + 1) % 3]
    c = target - scores[(leader + 2) % 3]
    if a > MAX_DISTANCE or b > MAX_DISTANCE or c > MAX_DISTANCE:
        return hand_value(scores, me)
    d = MAX_DISTANCE
    return 2.0 * CHANCES[3 * (((a - 1) * d + b - 1) * d + c - 1) + (me - leader) % 3] - 1.0


class ExpertV3Bot(ExpertBot):
    name = "expert-v3"
    label = "Expert v3"  # expert-v2's budget, opponent models and own play-out model
    exact_cards = 3  # search exactly once the bot holds this many cards
    hand_end = staticmethod(race_value)

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """The exact values once few cards are left, else expert-v2's sampled play-outs."""
        if self.exact(view):
            return self.evaluate_exactly(view)
        return super().evaluate(view, iterations, deadline)

    def exact(self, view: SeatView) -> bool:
        """Whether the bot searches this position exactly: few cards are left."""
        return len(view.hand) <= self.exact_cards

    def evaluate_exactly(self, view: SeatView) -> dict:
        """Every deal of the unseen cards, each weighted by how well the opponent models
        explain the opponents' plays this hand; in each, the exact (max-n) chance to win the
        game after each card. Return the weighted sums."""
        me, target = view.seat, view.target
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        hand = list(view.legal_cards)
        totals = dict.fromkeys(hand, 0.0)
        priors = self.opponent_models
        plays = opponent_plays(view)
        for chosen in combinations(unseen, n_left):
            left_cards = list(chosen)
            right_cards = [card for card in unseen if card not in chosen][:n_right]
            weight = 1.0
            for seat, cards in ((left, left_cards), (right, right_cards)):
                weight *= sum(model_weights(seat, cards, plays[seat], target, priors))
            hands = [None, None, None]
            hands[me], hands[left], hands[right] = hand, left_cards, right_cards
            values = card_values(hands, view.trick, view.leader, view.scores, target, me)
            for card, value in values.items():
                totals[card] += weight * value
        return totals
