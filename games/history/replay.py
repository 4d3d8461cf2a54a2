"""Replay positions: one per completed trick, built from an engine state by pure functions.

A position is what the board showed just before a trick was gathered: the three hands as
they were before its first card (only the seats the viewer may see), the trick's cards in
play order, its winner and the reason, its points and the running scores after it. Nothing
here touches the database: the input is ``GameState.hand_log``, the output plain tuples.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import TrickRecord, deal, trick_case
from games.engine.state import HandRecord


@dataclass(frozen=True)
class Position:
    """The board at one completed trick (``hand`` and ``trick`` are 1-based)."""

    index: int  # 0-based place of the trick in the whole game
    hand: int
    trick: int
    dealer: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int
    why: str
    scores: tuple[int, int, int]  # running totals after this trick
    hands: tuple[tuple[int, ...] | None, ...]  # per seat, before the trick; None when hidden


@dataclass(frozen=True)
class HandSheet:
    """One row of the score sheet: the points each seat took in a hand, and the totals."""

    number: int
    dealer: int
    tricks: int
    points: tuple[int, int, int]
    totals: tuple[int, int, int]


def _hands_before_each_trick(hand: HandRecord):
    """Yield, for each completed trick of ``hand``, the three hands before it was played."""
    held = [list(cards) for cards in deal(hand.deck, hand.dealer)]
    for trick in hand.tricks:
        yield tuple(tuple(cards) for cards in held)
        for i, card in enumerate(trick.cards):
            held[(trick.leader + i) % 3].remove(card)


def positions(hand_log: list[HandRecord], visible_seats=(0, 1, 2)) -> list[Position]:
    """Every completed trick of a game as a Position; hands only for ``visible_seats``.

    ``hand_log`` is not changed (it may be a cached game's).
    """
    visible = frozenset(visible_seats)
    result: list[Position] = []
    scores = [0, 0, 0]
    for hand in hand_log:
        befores = _hands_before_each_trick(hand) if visible else None
        for trick in hand.tricks:
            held = next(befores) if befores is not None else ((), (), ())
            scores[trick.winner] += trick.points
            result.append(_position(len(result), hand, trick, held, tuple(scores), visible))
    return result


def _position(index, hand: HandRecord, trick: TrickRecord, held, scores, visible) -> Position:
    return Position(
        index=index,
        hand=hand.number,
        trick=trick.number,
        dealer=hand.dealer,
        leader=trick.leader,
        cards=tuple(trick.cards),
        winner=trick.winner,
        points=trick.points,
        why=trick_case(trick.cards).explain(trick.cards),
        scores=scores,
        hands=tuple(held[seat] if seat in visible else None for seat in range(3)),
    )


def score_sheet(hand_log: list[HandRecord]) -> list[HandSheet]:
    """The points per seat in each hand (completed tricks only) with the running totals."""
    sheet = []
    totals = [0, 0, 0]
    for hand in hand_log:
        points = [0, 0, 0]
        for trick in hand.tricks:
            points[trick.winner] += trick.points
        totals = [total + won for total, won in zip(totals, points, strict=True)]
        sheet.append(
            HandSheet(hand.number, hand.dealer, len(hand.tricks), tuple(points), tuple(totals))
        )
    return sheet


def target_reached(all_positions: list[Position], target: int) -> Position | None:
    """The position whose trick brought a total to ``target``, if any did."""
    for position in all_positions:
        if max(position.scores) >= target:
            return position
    return None


def find(all_positions: list[Position], hand: int | None, trick: int | None) -> int:
    """The index of the position of ``hand``/``trick``, clamped to what exists (-1: none).

    Missing or unknown values fall back to the first trick of the hand, or the first trick.
    """
    if not all_positions:
        return -1
    if hand is None:
        return 0
    in_hand = [p for p in all_positions if p.hand == hand]
    if not in_hand:
        return 0 if hand < all_positions[0].hand else len(all_positions) - 1
    for position in in_hand:
        if position.trick == trick:
            return position.index
    if trick is not None and trick > in_hand[-1].trick:
        return in_hand[-1].index
    return in_hand[0].index


def steps(all_positions: list[Position], index: int) -> dict[str, Position | None]:
    """The positions the step controls lead to (None where there is nowhere to go)."""
    if index < 0:
        return dict.fromkeys(("first", "prev", "next", "last", "prev_hand", "next_hand"))
    current = all_positions[index]
    last = len(all_positions) - 1
    prev_hand = next_hand = None
    if current.trick > 1:  # back to the first trick of this hand
        prev_hand = all_positions[index - (current.trick - 1)]
    elif index > 0:  # already there: the first trick of the previous hand
        before = all_positions[index - 1]
        prev_hand = all_positions[before.index - (before.trick - 1)]
    following = index + 1
    while following <= last and all_positions[following].hand == current.hand:
        following += 1
    if following <= last:
        next_hand = all_positions[following]
    return {
        "first": all_positions[0] if index > 0 else None,
        "prev": all_positions[index - 1] if index > 0 else None,
        "next": all_positions[index + 1] if index < last else None,
        "last": all_positions[last] if index < last else None,
        "prev_hand": prev_hand,
        "next_hand": next_hand,
    }
