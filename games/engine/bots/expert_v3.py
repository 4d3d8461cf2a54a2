"""expert-v3: expert-v2's search (`expert.py`) with play-outs that judge the end of a hand by
the race to the target (`race.py`) instead of by the lead alone.

A play-out in which the bot reaches the target is worth +1 and one in which an opponent does
is worth -1; one that ends the hand with nobody at the target is worth ``2 p - 1``, where
``p`` is the bot's chance of winning the game from there: by how far each player still is
from the target and who leads the next hand (`race_table.py`).
"""

from __future__ import annotations

import time
from itertools import combinations

from ..tricks import TRICK_POINTS, TRICK_WINNER, trick_index
from ..views import SeatView
from .base import Budget, require_turn
from .endgame import card_values
from .expert import ExpertBot, model_likelihoods, opponent_plays
from .lookahead import LEAD_VALUE, SECOND_VALUE, hand_value, lookahead_last
from .playouts import CAREFUL, COST, LOOKAHEAD, _careful_last, unseen_cards_and_sizes
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


def race_playout(hands, trick, leader, scores, target, me, models) -> float:
    """`playouts.playout`, the hand's end judged by ``race_value``."""
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    cost = COST.__getitem__
    n = len(trick)
    a = trick[0] if n > 0 else -1
    b = trick[1] if n > 1 else -1
    while True:
        if a < 0:
            hand = hands[leader]
            if not hand:
                break
            if models[leader]:
                a = max(hand, key=LEAD_VALUE.__getitem__)
            else:
                plain = [c for c in hand if not 12 <= c < 24]
                a = min(plain or hand, key=cost)
            hand.remove(a)
        second = (leader + 1) % 3
        if b < 0:
            hand = hands[second]
            if models[second]:
                b = max(hand, key=SECOND_VALUE[a].__getitem__)
            else:
                higher = [c for c in hand if a < c < 24] if 12 <= a < 24 else None
                b = min(higher) if higher else min(hand, key=cost)
            hand.remove(b)
        third = (second + 1) % 3
        hand = hands[third]
        base = (a * 48 + b) * 48
        if models[third]:
            card = lookahead_last(hand, base, leader, third, scores, target)
        else:
            card = _careful_last(hand, base, scores[third], target)
        hand.remove(card)
        index = base + card
        leader = (leader + winners[index]) % 3
        points = trick_points[index]
        if points:
            total = scores[leader] + points
            if total >= target:
                return 1.0 if leader == me else -1.0
            scores[leader] = total
        a = b = -1
    return race_value(scores, me, leader, target)


def race_card_worth(view, hand, card, left_cards, right_cards, models) -> float:
    """`playouts.card_worth` with ``race_playout``."""
    me, target, leader = view.seat, view.target, view.leader
    hands = [None, None, None]
    hands[(me + 1) % 3] = list(left_cards)
    hands[(me + 2) % 3] = list(right_cards)
    mine = list(hand)
    mine.remove(card)
    hands[me] = mine
    scores = list(view.scores)
    if len(view.trick) == 2:
        a, b = view.trick
        index = trick_index(a, b, card)
        winner = (leader + TRICK_WINNER[index]) % 3
        points = TRICK_POINTS[index]
        if points and scores[winner] + points >= target:
            return 1.0 if winner == me else -1.0
        scores[winner] += points
        if not mine:
            return race_value(scores, me, winner, target)
        return race_playout(hands, [], winner, scores, target, me, models)
    return race_playout(hands, [*view.trick, card], leader, scores, target, me, models)


class ExpertV3Bot(ExpertBot):
    name = "expert-v3"
    label = "Expert v3"
    searches = True
    budget = Budget(iterations=100, seconds=0.5)
    lookahead_share = 0.5
    own_model = CAREFUL
    exact_cards = 3  # search exactly once the bot holds this many cards

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        if len(hand) == 1:
            return hand[0]
        budget = budget or self.budget
        iterations = budget.iterations or self.budget.iterations
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        if self.exact(view):
            totals = self.evaluate_exactly(view)
        else:
            totals = self.evaluate(view, iterations, deadline)
        return max(hand, key=lambda card: totals[card])

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
        share = self.lookahead_share
        plays = opponent_plays(view)
        for chosen in combinations(unseen, n_left):
            left_cards = list(chosen)
            right_cards = [card for card in unseen if card not in chosen][:n_right]
            weight = 1.0
            for seat, cards in ((left, left_cards), (right, right_cards)):
                careful, lookahead = model_likelihoods(seat, cards, plays[seat], target)
                weight *= careful * (1 - share) + lookahead * share
            hands = [None, None, None]
            hands[me], hands[left], hands[right] = hand, left_cards, right_cards
            values = card_values(hands, view.trick, view.leader, view.scores, target, me)
            for card, value in values.items():
                totals[card] += weight * value
        return totals

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """Return the summed play-out worth of each legal card over the determinizations."""
        me, target = view.seat, view.target
        hand = list(view.legal_cards)
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        totals = dict.fromkeys(hand, 0.0)
        rng = self.rng
        share = self.lookahead_share
        clock = time.perf_counter
        models = [self.own_model] * 3
        plays = opponent_plays(view)
        for done in range(iterations):
            if deadline is not None and done and clock() > deadline:
                break
            rng.shuffle(unseen)
            left_cards = unseen[:n_left]
            right_cards = unseen[n_left : n_left + n_right]
            weight = 1.0
            for seat, cards in ((left, left_cards), (right, right_cards)):
                careful, lookahead = model_likelihoods(seat, cards, plays[seat], target)
                careful, lookahead = careful * (1 - share), lookahead * share
                weight *= careful + lookahead
                chosen = rng.random() * (careful + lookahead) < lookahead
                models[seat] = LOOKAHEAD if chosen else CAREFUL
            for card in hand:
                worth = race_card_worth(view, hand, card, left_cards, right_cards, models)
                totals[card] += weight * worth
        return totals
