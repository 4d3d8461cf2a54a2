"""The trick rule, checked on every ordered triple against a second, independent statement."""

import pytest

from games.engine import parse_card, resolve_trick, trick_case, trick_winner
from games.engine.tricks import ONE_SUIT, PAIR, THREE_SUITS

CODES = [f"{rank}{suit}" for suit in "COEB" for rank in range(1, 13)]
HIGH_TO_LOW = ["1", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
BEATS = {"C": "O", "O": "E", "E": "B", "B": "C"}  # Cups contain Coins, Coins buy Swords, ...


def reference_winner(codes: tuple[str, str, str]) -> int:
    """RULES.md restated on card codes: the position of the winning card."""
    suits = [code[-1] for code in codes]
    ranks = [HIGH_TO_LOW.index(code[:-1]) for code in codes]  # 0 is highest
    if len(set(suits)) == 3:
        # The top of the chain A > B > C is the one present suit no present suit beats.
        (top,) = [i for i, s in enumerate(suits) if not any(BEATS[t] == s for t in suits)]
        return top
    if len(set(suits)) == 2:
        pair_suit = next(s for s in suits if suits.count(s) == 2)
        pair = [i for i in range(3) if suits[i] == pair_suit]
        return min(pair, key=lambda i: ranks[i])
    return min(range(3), key=lambda i: ranks[i])


def test_every_ordered_triple_of_distinct_cards_matches_the_reference():
    checked = 0
    for a in CODES:
        for b in CODES:
            if b == a:
                continue
            for c in CODES:
                if c in (a, b):
                    continue
                cards = (parse_card(a), parse_card(b), parse_card(c))
                expected = reference_winner((a, b, c))
                points = sum(code.endswith("O") for code in (a, b, c))
                assert trick_winner(*cards) == expected, (a, b, c)
                assert resolve_trick(*cards) == (expected, points), (a, b, c)
                checked += 1
    assert checked == 48 * 47 * 46


@pytest.mark.parametrize(
    ("trick", "winner", "kind"),
    [
        ("2C 1O 1E", "2C", THREE_SUITS),
        ("12O 3E 5B", "12O", THREE_SUITS),
        ("9E 1B 1C", "9E", THREE_SUITS),
        ("2B 12C 1O", "2B", THREE_SUITS),
        ("3O 7O 1C", "7O", PAIR),
        ("1B 2B 12B", "1B", ONE_SUIT),
        ("10C 11C 2E", "11C", PAIR),
    ],
)
def test_worked_examples_of_the_rules(trick, winner, kind):
    codes = trick.split()
    cards = tuple(parse_card(code) for code in codes)
    assert codes[trick_winner(*cards)] == winner
    case = trick_case(cards)
    assert case.kind == kind
    assert codes[case.winner] == winner


def test_explanations_name_the_deciding_case():
    def explain(trick):
        cards = tuple(parse_card(code) for code in trick.split())
        return trick_case(cards).explain(cards)

    assert explain("2C 1O 1E") == "Three suits, Clubs missing: Cups wins."
    assert explain("4E 12E 1C") == (
        "Pair of Swords: the King of Swords beats the 4 of Swords; the odd card never wins."
    )
    assert explain("1B 2B 12B") == "All three Clubs: the Ace of Clubs is highest."


def test_the_odd_card_never_wins_even_when_its_suit_beats_the_pair():
    # Cups beat Coins, yet with a pair of Coins the Ace of Cups loses.
    cards = tuple(parse_card(code) for code in ("2O", "3O", "1C"))
    assert trick_winner(*cards) == 1
