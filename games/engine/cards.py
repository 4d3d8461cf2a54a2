"""The 48 cards of the Spanish deck as small ints, and pure helpers on them.

A card is ``suit * 12 + strength``: suits are numbered in the dominance cycle
Cups (0) > Coins (1) > Swords (2) > Clubs (3) > Cups, so suit ``s`` beats suit ``(s + 1) % 4``;
strength runs 0 (the 2) to 11 (the Ace), so two cards of one suit compare as ints.
"""

from .errors import NotACard

SUIT_LETTERS = "COEB"
SUIT_NAMES = ("Cups", "Coins", "Swords", "Clubs")
CUPS, COINS, SWORDS, CLUBS = 0, 1, 2, 3

# Printed rank numbers, weakest first: 2..9, Knave (10), Knight (11), King (12), Ace (1).
RANKS_BY_STRENGTH = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1)
RANK_NAMES = {1: "Ace", 10: "Knave", 11: "Knight", 12: "King"}

DECK = tuple(range(48))
CARD_CODES = tuple(f"{RANKS_BY_STRENGTH[card % 12]}{SUIT_LETTERS[card // 12]}" for card in DECK)
_CARD_BY_CODE = {code: card for card, code in enumerate(CARD_CODES)}

# Points per card: each Coins card is worth one.
CARD_POINTS = tuple(1 if card // 12 == COINS else 0 for card in DECK)


def suit_of(card: int) -> int:
    return card // 12


def rank_of(card: int) -> int:
    """Return the number printed on the card (1 for the Ace .. 12 for the King)."""
    return RANKS_BY_STRENGTH[card % 12]


def beats(suit: int, other: int) -> bool:
    """Return True if ``suit`` is the one directly above ``other`` in the cycle."""
    return (suit + 1) % 4 == other


def card_code(card: int) -> str:
    """Return the code of a card, e.g. ``"12O"`` for the King of Coins."""
    return CARD_CODES[card]


def card_name(card: int) -> str:
    """Return a card's English name, e.g. ``"King of Coins"`` or ``"7 of Cups"``."""
    rank = rank_of(card)
    return f"{RANK_NAMES.get(rank, str(rank))} of {SUIT_NAMES[card // 12]}"


def parse_card(code: object) -> int:
    """Return the card for ``code``; raise NotACard for anything else.

    Codes are exact: upper-case suit letter, no leading zero, no spaces.
    """
    card = _CARD_BY_CODE.get(code) if isinstance(code, str) else None
    if card is None:
        shown = repr(code) if len(repr(code)) <= 12 else repr(code)[:12] + "..."
        raise NotACard(f"{shown} is not a card: use a rank 1-12 and a suit C, O, E or B, like 12O.")
    return card


def parse_cards(codes: object) -> tuple[int, ...]:
    """Parse a list of card codes; raise NotACard on the first bad one."""
    if not isinstance(codes, list | tuple):
        raise NotACard("Expected a list of card codes.")
    return tuple(parse_card(code) for code in codes)
