"""The look-ahead policy: expert-v1's play-out policy, and an opponent model of the later
experts' play-outs (`search/playouts.py`). A card is judged by the average trick it makes
against every answer from the rest of the deck (tables computed once at import), less what
keeping it is worth; last to play, the trick is known, and one that ends the game counts for
far more than its points.
"""

from __future__ import annotations

from ...cards import CARD_POINTS
from ...tricks import TRICK_POINTS, TRICK_WINNER
from .policy import PlayoutPolicy

COIN_KEEP_VALUE = 0.45  # a Coins card in hand is a point we may still win with it
STRENGTH_KEEP_VALUE = 0.12  # an Ace is worth keeping a little more than a 2
OPPONENT_POINT_COST = 0.5  # a point to one opponent is shared harm: half a point of ours
GAME_DECIDING = 100.0  # in the rollout policy, a trick that ends the game outweighs all

KEEP = tuple(
    COIN_KEEP_VALUE * CARD_POINTS[c] + STRENGTH_KEEP_VALUE * (c % 12) / 11 for c in range(48)
)


def _build_policy_tables():
    """Return the rollout policy's card values by trick position, keep value included.

    ``lead[c]``: leading ``c``; ``second[a][c]``: answering ``a`` with ``c``;
    ``third[a * 48 + b][c]``: closing ``a, b`` with ``c`` (no target bonus).
    """
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    third = []
    for a in range(48):
        for b in range(48):
            row = [0.0] * 48
            if a != b:
                base = (a * 48 + b) * 48
                for c in range(48):
                    if c in (a, b):
                        continue
                    pts = trick_points[base + c]
                    gain = pts if winners[base + c] == 2 else -OPPONENT_POINT_COST * pts
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
                pts = trick_points[base + c]
                total += pts if winners[base + c] == 1 else -OPPONENT_POINT_COST * pts
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
                pts = trick_points[base + c]
                total += pts if winners[base + c] == 0 else -OPPONENT_POINT_COST * pts
        lead.append(total / (47 * 46) - KEEP[a])
    return tuple(lead), tuple(second), tuple(third)


LEAD_VALUE, SECOND_VALUE, THIRD_VALUE = _build_policy_tables()


def lookahead_lead(hand) -> int:
    return max(hand, key=LEAD_VALUE.__getitem__)


def lookahead_second(hand, a: int) -> int:
    return max(hand, key=SECOND_VALUE[a].__getitem__)


def lookahead_last(hand, base, leader, me, scores, target) -> int:
    """The play-out policy last to play (the trick ``base`` is ``(a * 48 + b) * 48``): the
    best trick by its points, keep values counted, and a trick that ends the game counts for
    far more than its points once a player may reach the target."""
    if len(hand) == 1:
        return hand[0]
    if max(scores) < target - 3:
        return max(hand, key=THIRD_VALUE[base // 48].__getitem__)
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    card, best = hand[0], -1e9
    for c in hand:
        points = trick_points[base + c]
        winner = (leader + winners[base + c]) % 3
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


LOOKAHEAD = PlayoutPolicy("lookahead", lookahead_lead, lookahead_second, lookahead_last)
