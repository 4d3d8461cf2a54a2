"""Card codes: exactly the 48 codes of RULES.md parse, and nothing else does."""

import pytest

from games.engine import CARD_CODES, NotACard, card_code, parse_card, rank_of, suit_of
from games.engine.cards import card_name, parse_cards


def test_there_are_48_distinct_codes_covering_every_rank_and_suit():
    expected = {f"{rank}{suit}" for rank in range(1, 13) for suit in "COEB"}
    assert set(CARD_CODES) == expected
    assert len(CARD_CODES) == 48


@pytest.mark.parametrize("code", sorted({f"{r}{s}" for r in range(1, 13) for s in "COEB"}))
def test_every_code_round_trips(code):
    card = parse_card(code)
    assert card_code(card) == code
    assert f"{rank_of(card)}{'COEB'[suit_of(card)]}" == code


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "1",
        "O",
        "0O",
        "13C",
        "01O",
        "1o",
        "12c",
        " 1O",
        "1O ",
        "1OO",
        "1X",
        "12 O",
        "\u0661O",
        1,
        12,
        None,
        1.0,
        b"1O",
        ["1O"],
        True,
    ],
)
def test_anything_else_is_not_a_card(bad):
    with pytest.raises(NotACard, match="not a card"):
        parse_card(bad)


def test_strength_order_is_ace_king_knight_knave_then_numbers():
    order = ["1C", "12C", "11C", "10C", "9C", "8C", "7C", "6C", "5C", "4C", "3C", "2C"]
    cards = [parse_card(code) for code in order]
    assert cards == sorted(cards, reverse=True)


def test_names_are_readable():
    assert card_name(parse_card("12O")) == "King of Coins"
    assert card_name(parse_card("1C")) == "Ace of Cups"
    assert card_name(parse_card("7E")) == "7 of Swords"


def test_parse_cards_rejects_non_lists_and_bad_members():
    assert parse_cards(["1O", "2B"]) == (parse_card("1O"), parse_card("2B"))
    with pytest.raises(NotACard):
        parse_cards("1O")
    with pytest.raises(NotACard):
        parse_cards(["1O", "zz"])
