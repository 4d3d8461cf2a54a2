"""The first expert, frozen as ``expert-v1``: the ladder's fixed reference and the bot that
played every game recorded as ``expert`` before the levels were calibrated.

Perfect Information Monte Carlo search over its own view.

The bot knows its hand and every card played, so the cards it has not seen lie in the other
two hands, in sizes it also knows. Each iteration deals those unseen cards at random to the
two other seats (a *determinization*), then, for every card it could play, plays that card
and rolls the rest of the hand out with a fast rule-based policy on plain int lists. The
card with the best average outcome is played.

Outcomes are judged by what wins this game: a rollout in which the bot reaches the target
is worth +1 and one in which an opponent does is worth -1; a rollout that ends the hand with
nobody at the target is worth less, by how far ahead of the leading opponent the bot is.

The rollout policy, used for every seat, looks one trick ahead like the heuristic bot:

* leading or second to play, a card is judged by the average outcome of the trick against
  every answer from the rest of the deck (tables computed once at import);
* last to play, the trick is known: win Coins cheaply, never give Coins away, shed low cards,
  and a trick that reaches the target counts for far more than its points.

It reads only the `SeatView` it is handed; the iteration budget (determinizations) makes it
reproducible for a seed, and a wall-clock cap keeps it responsive.
"""

from __future__ import annotations

import math
import time

from ..cards import CARD_POINTS
from ..tricks import TRICK_TABLE
from ..views import SeatView
from .base import Bot, Budget, require_turn

# 40 determinizations: about 7 ms at p50 and 30 ms at p95 on one core, so the clock cap is a
# safety net that should never decide (a game between bots then replays exactly).
DEFAULT_BUDGET = Budget(iterations=40, seconds=0.24)

COIN_KEEP_VALUE = 0.45  # a Coins card in hand is a point we may still win with it
STRENGTH_KEEP_VALUE = 0.12  # an Ace is worth keeping a little more than a 2
OPPONENT_POINT_COST = 0.5  # a point to one opponent is shared harm: half a point of ours
GAME_DECIDING = 100.0  # in the rollout policy, a trick that ends the game outweighs all

WIN, LOSS = 1.0, -1.0  # rollout outcomes when someone reaches the target
LEAD_SCALE = 4.0  # hand worth: tanh of the points ahead of the leading opponent / 4
MEAN_SCALE = 6.0

KEEP = tuple(
    COIN_KEEP_VALUE * CARD_POINTS[c] + STRENGTH_KEEP_VALUE * (c % 12) / 11 for c in range(48)
)


def _build_policy_tables():
    """Return the rollout policy's card values by trick position, keep value included.

    ``lead[c]``: leading ``c``; ``second[a][c]``: answering ``a`` with ``c``;
    ``third[a * 48 + b][c]``: closing ``a, b`` with ``c`` (no target bonus).
    """
    table = TRICK_TABLE
    third = []
    for a in range(48):
        for b in range(48):
            row = [0.0] * 48
            if a != b:
                base = (a * 48 + b) * 48
                for c in range(48):
                    if c in (a, b):
                        continue
                    entry = table[base + c]
                    pts = entry >> 2
                    gain = pts if entry & 3 == 2 else -OPPONENT_POINT_COST * pts
                    row[c] = gain - KEEP[c]
            third.append(row)
    second = []
    for a in range(48):
        row = [0.0] * 48
        for b in range(48):
            if b == a:
                continue
            base = (a * 48 + b) * 48
            total = 0.0
            for c in range(48):
                if c in (a, b):
                    continue
                entry = table[base + c]
                pts = entry >> 2
                total += pts if entry & 3 == 1 else -OPPONENT_POINT_COST * pts
            row[b] = total / 46 - KEEP[b]
        second.append(row)
    lead = []
    for a in range(48):
        total = 0.0
        for b in range(48):
            if b == a:
                continue
            base = (a * 48 + b) * 48
            for c in range(48):
                if c in (a, b):
                    continue
                entry = table[base + c]
                pts = entry >> 2
                total += pts if entry & 3 == 0 else -OPPONENT_POINT_COST * pts
        lead.append(total / (47 * 46) - KEEP[a])
    return tuple(lead), tuple(second), tuple(third)


LEAD_VALUE, SECOND_VALUE, THIRD_VALUE = _build_policy_tables()


def hand_value(scores, me: int) -> float:
    """Worth of a hand that ended with ``scores`` and nobody at the target, in (-1, 1)."""
    a, b = scores[(me + 1) % 3], scores[(me + 2) % 3]
    mine = scores[me]
    ahead = math.tanh((mine - max(a, b)) / LEAD_SCALE)
    mean = math.tanh((2 * mine - a - b) / (2 * MEAN_SCALE))
    return 0.6 * ahead + 0.3 * mean


def lookahead_last(hand, base, leader, me, scores, target) -> int:
    """The play-out policy last to play (the trick ``base`` is ``(a * 48 + b) * 48``): the
    best trick by its points, keep values counted, and a trick that ends the game counts for
    far more than its points once a player may reach the target."""
    if len(hand) == 1:
        return hand[0]
    if max(scores) < target - 3:
        return max(hand, key=THIRD_VALUE[base // 48].__getitem__)
    table = TRICK_TABLE
    card, best = hand[0], -1e9
    for c in hand:
        entry = table[base + c]
        points = entry >> 2
        winner = (leader + (entry & 3)) % 3
        if winner == me:
            worth = points + (GAME_DECIDING if points and scores[me] + points >= target else 0)
        else:
            worth = -OPPONENT_POINT_COST * points
            if points and scores[winner] + points >= target:
                worth -= GAME_DECIDING
        worth -= KEEP[c]
        if worth > best:
            card, best = c, worth
    return card


def rollout(hands, trick, leader, scores, target, me) -> float:
    """Play the hand out from this position with the policy; return its worth to ``me``.

    ``hands`` (three lists), ``trick`` (a list) and ``scores`` (a list) are consumed. The
    loop plays one whole trick a turn, starting with the cards of ``trick`` already down.
    """
    table = TRICK_TABLE
    lead_get = LEAD_VALUE.__getitem__
    second_value = SECOND_VALUE
    third_value = THIRD_VALUE
    danger = target - 3  # from this score on, one trick may end the game
    near_end = max(scores) >= danger
    n = len(trick)
    a = trick[0] if n > 0 else -1
    b = trick[1] if n > 1 else -1
    while True:
        if a < 0:
            hand = hands[leader]
            if not hand:
                break
            a = max(hand, key=lead_get) if len(hand) > 1 else hand[0]
            hand.remove(a)
        second = (leader + 1) % 3
        if b < 0:
            hand = hands[second]
            if not hand:
                break
            b = max(hand, key=second_value[a].__getitem__) if len(hand) > 1 else hand[0]
            hand.remove(b)
        third = (second + 1) % 3
        hand = hands[third]
        if not hand:
            break
        base = (a * 48 + b) * 48
        if len(hand) == 1:
            card = hand[0]
        elif not near_end:
            card = max(hand, key=third_value[a * 48 + b].__getitem__)
        else:
            card = lookahead_last(hand, base, leader, third, scores, target)
        hand.remove(card)
        entry = table[base + card]
        leader = (leader + (entry & 3)) % 3
        pts = entry >> 2
        if pts:
            total = scores[leader] + pts
            if total >= target:
                return WIN if leader == me else LOSS
            scores[leader] = total
            if total >= danger:
                near_end = True
        a = b = -1
    return hand_value(scores, me)


class ExpertV1Bot(Bot):
    name = "expert-v1"
    label = "Expert v1"
    searches = True
    budget = DEFAULT_BUDGET

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        if len(hand) == 1:
            return hand[0]
        budget = budget or DEFAULT_BUDGET
        iterations = budget.iterations
        if iterations is None:
            iterations = DEFAULT_BUDGET.iterations if budget.seconds is None else 10**9
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        totals = self.evaluate(view, iterations, deadline)
        return max(hand, key=lambda card: totals[card])

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """Return the summed rollout worth of each legal card over the determinizations."""
        me, target = view.seat, view.target
        hand = list(view.legal_cards)
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen = list(view.unseen_cards())
        sizes = view.hand_sizes
        n_left = min(sizes[left], len(unseen))
        n_right = min(sizes[right], len(unseen) - n_left)
        trick0 = list(view.trick)
        leader = view.leader
        scores0 = list(view.scores)
        totals = dict.fromkeys(hand, 0.0)
        closes = len(trick0) == 2
        shuffle = self.rng.shuffle
        clock = time.perf_counter
        for done in range(iterations):
            if deadline is not None and done and clock() > deadline:
                break
            shuffle(unseen)
            left_cards = unseen[:n_left]
            right_cards = unseen[n_left : n_left + n_right]
            for card in hand:
                hands = [None, None, None]
                hands[left] = list(left_cards)
                hands[right] = list(right_cards)
                mine = list(hand)
                mine.remove(card)
                hands[me] = mine
                if closes:
                    a, b = trick0
                    entry = TRICK_TABLE[(a * 48 + b) * 48 + card]
                    winner = (leader + (entry & 3)) % 3
                    pts = entry >> 2
                    scores = list(scores0)
                    if pts and scores[winner] + pts >= target:
                        totals[card] += WIN if winner == me else LOSS
                        continue
                    scores[winner] += pts
                    totals[card] += rollout(hands, [], winner, scores, target, me)
                else:
                    totals[card] += rollout(
                        hands, [*trick0, card], leader, list(scores0), target, me
                    )
        return totals
