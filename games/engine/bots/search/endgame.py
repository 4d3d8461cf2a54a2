"""Exact search of a hand's last tricks with every hand known (one deal of the unseen cards).

Max-n: each player plays the card that maximises its own chance of winning the game, knowing
every hand. A trick that brings a player to the target ends the game (chance 1 for them, 0
for the others); a hand that ends with nobody at the target is judged by the race to the
target (`values/race.py`), from the scores and who leads the next hand. Cards are ints,
hands plain lists; a hand of n cards has (n!)^3 ways to be played out, so this is for the
last few.
"""

from __future__ import annotations

from ...tricks import TRICK_POINTS, TRICK_WINNER
from ..values.race import race_chances

WON = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def solve(hands, trick, leader: int, scores, target: int) -> tuple[float, float, float]:
    """The chances of each seat to win the game with best play by all (max-n) from this
    position: ``hands[seat]`` the cards each holds, ``trick`` the cards on the table (the
    leader's first), ``leader`` the trick's leader, ``scores`` the totals. Nothing is
    changed in place."""
    n = len(trick)
    seat = (leader + n) % 3
    hand = hands[seat]
    if not hand:  # only when no trick has been started: the hand is over
        return race_chances(scores, leader, target)
    best = None
    best_own = -1.0
    if n < 2:
        for k, card in enumerate(hand):
            rest = list(hands)
            rest[seat] = hand[:k] + hand[k + 1 :]
            value = solve(rest, (*trick, card), leader, scores, target)
            if value[seat] > best_own:
                best, best_own = value, value[seat]
        return best
    base = (trick[0] * 48 + trick[1]) * 48
    for k, card in enumerate(hand):
        index = base + card
        winner = (leader + TRICK_WINNER[index]) % 3
        points = TRICK_POINTS[index]
        if points and scores[winner] + points >= target:
            value = WON[winner]
        else:
            rest = list(hands)
            rest[seat] = hand[:k] + hand[k + 1 :]
            after = list(scores)
            after[winner] += points
            value = solve(rest, (), winner, after, target)
        if value[seat] > best_own:
            best, best_own = value, value[seat]
    return best


def card_values(hands, trick, leader: int, scores, target: int, me: int) -> dict:
    """``me``'s chance to win the game after playing each of its cards, every player then
    playing best (max-n) with every hand known; ``me`` is the seat to play."""
    hand = hands[me]
    values = {}
    for k, card in enumerate(hand):
        rest = list(hands)
        rest[me] = hand[:k] + hand[k + 1 :]
        if len(trick) == 2:
            index = (trick[0] * 48 + trick[1]) * 48 + card
            winner = (leader + TRICK_WINNER[index]) % 3
            points = TRICK_POINTS[index]
            if points and scores[winner] + points >= target:
                values[card] = WON[winner][me]
                continue
            after = list(scores)
            after[winner] += points
            values[card] = solve(rest, (), winner, after, target)[me]
        else:
            values[card] = solve(rest, (*trick, card), leader, scores, target)[me]
    return values
