"""What the rules page shows: the cards as pictures, and the worked examples of the rules
(``shared/RULES.md``) as tricks, each with its winner and why, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.board.card_names import SUIT_NAMES, trick_why
from games.board.presenters import card_info
from games.engine import parse_card, resolve_trick
from games.engine.cards import RANKS_BY_STRENGTH, SUIT_LETTERS

# The worked examples of the rules, leader first (RULES.md, "Who wins a trick").
EXAMPLES = (
    ("2C", "1O", "1E"),
    ("12O", "3E", "5B"),
    ("9E", "1B", "1C"),
    ("2B", "12C", "1O"),
    ("3O", "7O", "1C"),
    ("10C", "11C", "2E"),
    ("1B", "2B", "12B"),
)


def suit_rows() -> list[dict]:
    """Each suit with its twelve cards, highest first."""
    return [
        {
            "letter": letter,
            "name": SUIT_NAMES[number],
            "cards": [
                card_info(parse_card(f"{rank}{letter}")) for rank in reversed(RANKS_BY_STRENGTH)
            ],
        }
        for number, letter in enumerate(SUIT_LETTERS)
    ]


def case_name(cards: tuple[int, int, int]) -> str:
    suits = {card_info(card)["suit"] for card in cards}
    return {3: _("Three different suits"), 2: _("Two cards of one suit"), 1: _("One suit")}[
        len(suits)
    ]


def worked_examples() -> list[dict]:
    """The examples as tricks: cards in play order, the winner marked, why it won."""
    examples = []
    for codes in EXAMPLES:
        cards = tuple(parse_card(code) for code in codes)
        winner, points = resolve_trick(*cards)
        examples.append(
            {
                "case": case_name(cards),
                "cards": [
                    {**card_info(card), "is_winner": i == winner, "is_lead": i == 0}
                    for i, card in enumerate(cards)
                ],
                "why": trick_why(cards),
                "points": points,
            }
        )
    return examples


def rules_context() -> dict:
    return {"suit_rows": suit_rows(), "examples": worked_examples()}
