"""Card and suit names in the viewer's language (the engine's own names are English)."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from games.board.words import get_language, pgettext
from games.board.words import gettext as _
from games.engine.cards import rank_of, suit_of
from games.engine.tricks import PAIR, THREE_SUITS, trick_case

# "Coins" is both the game and a suit, so suit names carry the context "suit".
SUIT_NAMES = (
    pgettext_lazy("suit", "Cups"),
    pgettext_lazy("suit", "Coins"),
    pgettext_lazy("suit", "Swords"),
    pgettext_lazy("suit", "Clubs"),
)


# "of Cups" as one phrase per suit, so languages that elide can: Catalan "d'Espases",
# French "d'Épées" (a "%(rank)s of %(suit)s" pattern would force "de Espases").
OF_SUIT = (
    pgettext_lazy("of suit", "of Cups"),
    pgettext_lazy("of suit", "of Coins"),
    pgettext_lazy("of suit", "of Swords"),
    pgettext_lazy("of suit", "of Clubs"),
)


def rank_name(rank: int) -> str:
    names = {
        1: pgettext("rank", "Ace"),
        10: pgettext("rank", "Knave"),
        11: pgettext("rank", "Knight"),
        12: pgettext("rank", "King"),
    }
    return names.get(rank, str(rank))


def card_label(card: int, language: str | None = None) -> str:
    """A card's name for people, e.g. "King of Coins" or, in Spanish, "Rey de Oros".

    A board names up to 22 cards and is rendered on every move: names are kept per language.
    ``language``: the active one, when the caller has read it already (each read of Django's
    active language goes through asgiref's ``Local``: a board asked for it 22 times).
    """
    key = (card, language or get_language())
    label = _labels.get(key)
    if label is None:
        label = _labels[key] = _("%(rank)s %(of_suit)s") % {
            "rank": rank_name(rank_of(card)),
            "of_suit": OF_SUIT[suit_of(card)],
        }
    return label


_labels: dict[tuple[int, str | None], str] = {}


def trick_why(cards: tuple[int, int, int], language: str | None = None) -> str:
    """Why a trick was won, in one sentence, in the viewer's language (the engine's
    ``TrickCase.explain`` says the same in English). Kept per cards and language, as card
    names are: every board of a hand shows its last trick's."""
    key = (tuple(cards), language or get_language())
    why = _whys.get(key)
    if why is None:
        why = _whys[key] = _trick_why(key[0], key[1])
    return why


_whys: dict[tuple, str] = {}  # at most 40 x 39 x 38 tricks per language


def _trick_why(cards: tuple[int, int, int], language: str) -> str:
    case = trick_case(cards)
    if case.kind == THREE_SUITS:
        return _("Three suits, %(missing)s missing: %(suit)s wins.") % {
            "missing": SUIT_NAMES[case.missing_suit],
            "suit": SUIT_NAMES[case.suit],
        }
    winner = card_label(cards[case.winner], language)
    if case.kind == PAIR:
        return _(
            "Pair %(of_suit)s: the %(winner)s beats the %(beaten)s; the odd card never wins."
        ) % {
            "of_suit": OF_SUIT[case.suit],
            "winner": winner,
            "beaten": card_label(cards[case.beaten], language),
        }
    return _("All three %(suit)s: the %(winner)s is highest.") % {
        "suit": SUIT_NAMES[case.suit],
        "winner": winner,
    }
