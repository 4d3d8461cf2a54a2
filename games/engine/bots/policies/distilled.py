"""The distilled policy: a play-out policy fitted to the choices of the search bots themselves.

The opponent models written by hand predict a strong player badly: of `expert-v1`'s cards,
the look-ahead policy names 11% of its leads and 33% of its last cards, the careful beginner
28% and 25%. A search bot's play-outs and its inference are only as good as those models.
This policy scores each card by a linear function of what a player sees when it plays
(the card, and the cards already in the trick), fitted as a conditional logit to the choices
the search bots made in real games (`lab/distill.py`, ``manage.py distill``): it names 29% of
their leads, 30% of their second cards and 44% of their last cards, and greedily played it
beats two look-ahead players 65% of the time.

It costs what the look-ahead policy costs: the scores are tables, one per trick position,
built at import from the fitted weights (`data/distilled_weights.py`), and a play-out takes the
best-scored card of the hand. Last to play near the target, a trick that ends the game adds
its own fitted weight.
"""

from __future__ import annotations

from ...tricks import TRICK_POINTS, TRICK_WINNER
from ..data.distilled_weights import LEAD, REACH, SECOND, THIRD
from .lookahead import LEAD_VALUE, SECOND_VALUE, THIRD_VALUE
from .policy import PlayoutPolicy

SAME, BEATS, BEATEN, APART = range(4)  # how a card's suit stands to the lead's suit


def suit_relation(lead: int, card: int) -> int:
    """``SAME`` suit, ``card``'s suit ``BEATS`` the lead's, is ``BEATEN`` by it, or neither."""
    lead_suit, suit = lead // 12, card // 12
    if lead_suit == suit:
        return SAME
    if suit == (lead_suit + 3) % 4:
        return BEATS
    if suit == (lead_suit + 1) % 4:
        return BEATEN
    return APART


def card_features(card: int) -> list[float]:
    """What every position sees of the card itself: is it a Coins card, how strong it is."""
    coin = 1.0 if 12 <= card < 24 else 0.0
    strength = (card % 12) / 11
    return [coin, strength, coin * strength]


def lead_features(card: int) -> list[float]:
    return [*card_features(card), LEAD_VALUE[card]]


def second_features(lead: int, card: int) -> list[float]:
    """Features of answering ``lead`` with ``card``: the look-ahead value, the suits'
    relation, crossed with Coins and strength, and whether it tops the lead in its suit."""
    coin, strength, coin_strength = card_features(card)
    relation = [0.0] * 4
    relation[suit_relation(lead, card)] = 1.0
    lead_coin = 1.0 if 12 <= lead < 24 else 0.0
    higher = 1.0 if relation[SAME] and card > lead else 0.0
    return [
        coin,
        strength,
        coin_strength,
        SECOND_VALUE[lead][card],
        *relation,
        *(r * lead_coin for r in relation),
        *(r * coin for r in relation),
        higher,
        higher * lead_coin,
        *(r * strength for r in relation),
    ]


def third_features(first: int, second: int, card: int) -> list[float]:
    """Features of closing ``first, second`` with ``card``: who takes the trick and its
    points, crossed with the card's Coins and strength."""
    coin, strength, coin_strength = card_features(card)
    base = (first * 48 + second) * 48
    position = TRICK_WINNER[base + card]
    points = TRICK_POINTS[base + card]
    mine = 1.0 if position == 2 else 0.0
    return [
        coin,
        strength,
        coin_strength,
        THIRD_VALUE[base // 48][card],
        mine,
        mine * points,
        (1 - mine) * points,
        points if position == 0 else 0.0,
        points if position == 1 else 0.0,
        mine * coin,
        mine * strength,
        (1 - mine) * strength,
    ]


def score(weights, features: list[float], card: int) -> float:
    """A card's score: its own weight (the first 48) plus the weighted features."""
    total = weights[card]
    for weight, feature in zip(weights[48:], features, strict=True):
        total += weight * feature
    return total


def _build_tables():
    lead = tuple(score(LEAD, lead_features(c), c) for c in range(48))
    second = tuple(
        tuple(score(SECOND, second_features(a, c), c) if c != a else -1e9 for c in range(48))
        for a in range(48)
    )
    third = []
    for a in range(48):
        for b in range(48):
            if a == b:
                third.append((-1e9,) * 48)
                continue
            third.append(
                tuple(
                    score(THIRD, third_features(a, b, c), c) if c not in (a, b) else -1e9
                    for c in range(48)
                )
            )
    return lead, second, tuple(third)


LEAD_SCORE, SECOND_SCORE, THIRD_SCORE = _build_tables()
REACH_MINE, REACH_OTHER = REACH  # last to play: a trick that ends the game, for me or not


def reach_features(first, second, card, leader, me, scores, target) -> list[float]:
    """Whether closing the trick with ``card`` ends the game, for ``me`` or another."""
    index = (first * 48 + second) * 48 + card
    points = TRICK_POINTS[index]
    winner = (leader + TRICK_WINNER[index]) % 3
    reaches = bool(points) and scores[winner] + points >= target
    return [1.0 if reaches and winner == me else 0.0, 1.0 if reaches and winner != me else 0.0]


def distilled_lead(hand) -> int:
    return max(hand, key=LEAD_SCORE.__getitem__)


def distilled_second(hand, a: int) -> int:
    return max(hand, key=SECOND_SCORE[a].__getitem__)


def distilled_last(hand, base, leader, me, scores, target) -> int:
    """The policy last to play (``base`` is ``(a * 48 + b) * 48``): the best-scored card,
    a trick that ends the game counted once a player may reach the target."""
    row = THIRD_SCORE[base // 48]
    if max(scores) < target - 3:
        return max(hand, key=row.__getitem__)
    winners, trick_points = TRICK_WINNER, TRICK_POINTS
    card, best = hand[0], -1e18
    for c in hand:
        worth = row[c]
        points = trick_points[base + c]
        if points:
            winner = (leader + winners[base + c]) % 3
            if scores[winner] + points >= target:
                worth += REACH_MINE if winner == me else REACH_OTHER
        if worth > best:
            card, best = c, worth
    return card


DISTILLED = PlayoutPolicy("distilled", distilled_lead, distilled_second, distilled_last)
