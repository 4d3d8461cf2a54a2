"""Fast play-outs for the search: the rest of a hand played by play-out policies.

A play-out gives each seat a `PlayoutPolicy` (`policies/`): the search's own later cards are
played by the policy its settings name, each opponent by a model drawn from its priors
(`inference.py`). Play-outs work on plain int lists (cards are ``suit * 12 + strength``,
Coins are 12..23).
"""

from __future__ import annotations

from ...tricks import TRICK_POINTS, TRICK_WINNER, trick_index


def playout(hands, trick, leader, scores, target, me, models, value) -> float:
    """Play the hand out from this position; return its worth to ``me``.

    ``models[seat]`` is the `PlayoutPolicy` of each seat; a player reaching the target ends
    it at +1 for ``me`` or -1, else ``value(scores, me, leader, target)`` judges the hand's
    end (``leader`` leads the next hand). ``hands``, ``trick`` and ``scores`` are consumed.
    """
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    leads = [model.lead for model in models]
    seconds = [model.second for model in models]
    lasts = [model.last for model in models]
    n = len(trick)
    a = trick[0] if n > 0 else -1
    b = trick[1] if n > 1 else -1
    while True:
        if a < 0:
            hand = hands[leader]
            if not hand:
                break
            a = leads[leader](hand)
            hand.remove(a)
        second = (leader + 1) % 3
        if b < 0:
            hand = hands[second]
            if not hand:
                break
            b = seconds[second](hand, a)
            hand.remove(b)
        third = (second + 1) % 3
        hand = hands[third]
        if not hand:
            break
        base = (a * 48 + b) * 48
        card = lasts[third](hand, base, leader, third, scores, target)
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
