"""Who wins a trick of three cards, and why.

`trick_winner` states the rule plainly; `resolve_trick` answers the same question from two
tables precomputed from it, `TRICK_WINNER` and `TRICK_POINTS`, read at one index per trick
(`trick_index`) by the hot paths (the game state, simulation, search).
"""

from dataclasses import dataclass

from .cards import CARD_POINTS, SUIT_NAMES, card_name

THREE_SUITS, PAIR, ONE_SUIT = "three_suits", "pair", "one_suit"


def trick_winner(a: int, b: int, c: int) -> int:
    """Return the position (0 = leader, 1, 2) of the card that wins the trick ``a, b, c``."""
    suits = (a // 12, b // 12, c // 12)
    cards = (a, b, c)
    distinct = len(set(suits))
    if distinct == 3:
        missing = 6 - sum(suits)  # the suits are 0..3, which add up to 6
        return suits.index((missing + 1) % 4)  # the suit that the missing suit beats
    if distinct == 2:
        i, j = next(p for p in ((0, 1), (0, 2), (1, 2)) if suits[p[0]] == suits[p[1]])
        return i if cards[i] > cards[j] else j  # the odd card never wins
    return cards.index(max(cards))


def trick_index(a: int, b: int, c: int) -> int:
    """Where the trick ``a, b, c`` (in play order) is found in ``TRICK_WINNER`` and
    ``TRICK_POINTS``; hot loops inline it as ``base + c`` with ``base = (a * 48 + b) * 48``."""
    return (a * 48 + b) * 48 + c


def _build_tables() -> tuple[bytes, bytes]:
    """The winner's position and the points of every trick of three distinct cards, by
    ``trick_index`` (255 where a card repeats)."""
    winners = bytearray(b"\xff" * 48**3)
    points = bytearray(b"\xff" * 48**3)
    for a in range(48):
        for b in range(48):
            if b == a:
                continue
            for c in range(48):
                if c != a and c != b:
                    index = trick_index(a, b, c)
                    winners[index] = trick_winner(a, b, c)
                    points[index] = CARD_POINTS[a] + CARD_POINTS[b] + CARD_POINTS[c]
    return bytes(winners), bytes(points)


TRICK_WINNER, TRICK_POINTS = _build_tables()


def resolve_trick(a: int, b: int, c: int) -> tuple[int, int]:
    """Return ``(winner position, points)`` for three distinct cards, by table lookup."""
    index = trick_index(a, b, c)
    return TRICK_WINNER[index], TRICK_POINTS[index]


@dataclass(frozen=True)
class TrickCase:
    """Which of the three cases of the trick rule decided a trick, for people to read."""

    kind: str  # THREE_SUITS, PAIR or ONE_SUIT
    winner: int  # position in the trick
    suit: int  # winning suit
    missing_suit: int | None = None  # THREE_SUITS only
    beaten: int | None = None  # PAIR: the other card of the pair

    def explain(self, cards: tuple[int, ...]) -> str:
        """Return one sentence, e.g. 'Three suits, Clubs missing: Cups wins.'"""
        if self.kind == THREE_SUITS:
            return (
                f"Three suits, {SUIT_NAMES[self.missing_suit]} missing: "
                f"{SUIT_NAMES[self.suit]} wins."
            )
        winner = card_name(cards[self.winner])
        if self.kind == PAIR:
            return (
                f"Pair of {SUIT_NAMES[self.suit]}: the {winner} beats the "
                f"{card_name(cards[self.beaten])}; the odd card never wins."
            )
        return f"All three {SUIT_NAMES[self.suit]}: the {winner} is highest."


def trick_case(cards: tuple[int, int, int]) -> TrickCase:
    """Return which rule case decides ``cards`` and who wins by it."""
    winner = trick_winner(*cards)
    suits = [card // 12 for card in cards]
    suit = suits[winner]
    distinct = len(set(suits))
    if distinct == 3:
        return TrickCase(THREE_SUITS, winner, suit, missing_suit=6 - sum(suits))
    if distinct == 2:
        beaten = next(i for i in range(3) if i != winner and suits[i] == suit)
        return TrickCase(PAIR, winner, suit, beaten=beaten)
    return TrickCase(ONE_SUIT, winner, suit)
