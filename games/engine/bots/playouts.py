"""Fast play-outs for the search bots: the rest of a hand played by rule-based policies.

A search bot cannot know how its opponents think, so each play-out draws a policy per
opponent from a small pool of *opponent models*:

* ``CAREFUL``: the careful beginner (see `careful.py`), the plain play of a sensible person;
* ``LOOKAHEAD``: expert-v1's play-out policy, which judges a card by the average trick
  against every answer and keeps Coins and strong cards;
* ``DISTILLED``: a policy fitted to the search bots' own choices (`distilled.py`), the
  closest of the three to how a strong player plays.

Mixing the two keeps the search honest against opponents it was not written for: modelling
only careful players won 67% against careful beginners but 33% against expert-v1.

Play-outs work on plain int lists (cards are ``suit * 12 + strength``, Coins are 12..23).
"""

from __future__ import annotations

from ..tricks import TRICK_POINTS, TRICK_WINNER, trick_index
from .distilled import LEAD_SCORE, SECOND_SCORE, distilled_last
from .lookahead import LEAD_VALUE, SECOND_VALUE, lookahead_last

CAREFUL, LOOKAHEAD, DISTILLED = 0, 1, 2

# The careful beginner's order, cheapest first: other suits before Coins, weakest first.
COST = tuple((1000 if 12 <= c < 24 else 0) + (c % 12) * 4 + c // 12 for c in range(48))


def playout(hands, trick, leader, scores, target, me, models, value) -> float:
    """Play the hand out from this position; return its worth to ``me``.

    ``models[seat]`` is the policy of each seat (``CAREFUL``, ``LOOKAHEAD``, ``DISTILLED``);
    a player reaching the target ends it at +1 for ``me`` or -1, else
    ``value(scores, me, leader, target)`` judges the hand's end (``leader`` leads the next
    hand). ``hands``, ``trick`` and ``scores`` are consumed.
    """
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
            model = models[leader]
            if model == DISTILLED:
                a = max(hand, key=LEAD_SCORE.__getitem__)
            elif model:
                a = max(hand, key=LEAD_VALUE.__getitem__)
            else:
                plain = [c for c in hand if not 12 <= c < 24]
                a = min(plain or hand, key=cost)
            hand.remove(a)
        second = (leader + 1) % 3
        if b < 0:
            hand = hands[second]
            if not hand:
                break
            model = models[second]
            if model == DISTILLED:
                b = max(hand, key=SECOND_SCORE[a].__getitem__)
            elif model:
                b = max(hand, key=SECOND_VALUE[a].__getitem__)
            else:
                higher = [c for c in hand if a < c < 24] if 12 <= a < 24 else None
                b = min(higher) if higher else min(hand, key=cost)
            hand.remove(b)
        third = (second + 1) % 3
        hand = hands[third]
        if not hand:
            break
        base = (a * 48 + b) * 48
        model = models[third]
        if model == DISTILLED:
            card = distilled_last(hand, base, leader, third, scores, target)
        elif model:
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
    return value(scores, me, leader, target)


def unseen_cards_and_sizes(view) -> tuple[list[int], int, int]:
    """The cards ``view``'s seat has not seen, and how many of them the seat after it and
    the one after that hold: what each deal of a search shares out."""
    unseen = list(view.unseen_cards())
    sizes = view.hand_sizes
    n_left = min(sizes[(view.seat + 1) % 3], len(unseen))
    return unseen, n_left, min(sizes[(view.seat + 2) % 3], len(unseen) - n_left)


def card_worth(view, hand, card, left_cards, right_cards, models, value) -> float:
    """The worth to ``view``'s seat of playing ``card`` from ``hand`` in one deal of the
    unseen cards (``left_cards`` and ``right_cards`` to the seats after it), the rest of the
    hand played out by ``models``. A card that closes a trick reaching the target is worth
    +1 or -1 at once."""
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
        return playout(hands, [], winner, scores, target, me, models, value)
    return playout(hands, [*view.trick, card], leader, scores, target, me, models, value)


def model_card(model, hand, before, leader, seat, scores, target) -> int:
    """The card ``model`` plays from ``hand`` with ``before`` on the table (one decision,
    exactly as in a play-out): how a search bot asks what an opponent would have done."""
    if not before:
        if model == DISTILLED:
            return max(hand, key=LEAD_SCORE.__getitem__)
        if model:
            return max(hand, key=LEAD_VALUE.__getitem__)
        plain = [c for c in hand if not 12 <= c < 24]
        return min(plain or hand, key=COST.__getitem__)
    a = before[0]
    if len(before) == 1:
        if model == DISTILLED:
            return max(hand, key=SECOND_SCORE[a].__getitem__)
        if model:
            return max(hand, key=SECOND_VALUE[a].__getitem__)
        higher = [c for c in hand if a < c < 24] if 12 <= a < 24 else None
        return min(higher) if higher else min(hand, key=COST.__getitem__)
    base = (a * 48 + before[1]) * 48
    if model == DISTILLED:
        return distilled_last(hand, base, leader, seat, scores, target)
    if model:
        return lookahead_last(hand, base, leader, seat, scores, target)
    return _careful_last(hand, base, scores[seat], target)


def _careful_last(hand, base, my_score, target) -> int:
    """Take Coins (or the game) with the cheapest winning card, else throw the cheapest."""
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    card, best = -1, 10**9
    for c in hand:
        if winners[base + c] == 2:
            points = trick_points[base + c]
            takes = points > (12 <= c < 24) or my_score + points >= target
            if points and takes and COST[c] < best:
                card, best = c, COST[c]
    return card if card >= 0 else min(hand, key=COST.__getitem__)
