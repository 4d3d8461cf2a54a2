"""The rules of Coins (Mark Steere, 2022) in pure Python, with no Django import.

`GameState` is the whole truth of a game and stays on the server; `GameState.view_for(seat)`
is what may leave it. See RULES.md for the rules this implements.
"""

from .cards import (
    CARD_CODES,
    CARD_POINTS,
    COINS,
    DECK,
    SUIT_LETTERS,
    SUIT_NAMES,
    card_code,
    card_name,
    parse_card,
    rank_of,
    suit_of,
)
from .errors import GameOver, IllegalPlay, InvalidRecord, NotACard, NotInHand, NotYourTurn
from .record import (
    FORMAT,
    bot_players,
    record_json,
    record_of,
    state_from_record,
    verify_public_record,
)
from .shuffle import deck_from_seed, first_dealer_from_seed, new_seed
from .state import TRICKS_PER_HAND, GameState, HandRecord, TrickRecord, deal
from .tricks import TrickCase, resolve_trick, trick_case, trick_winner
from .views import SeatView

__all__ = [
    "CARD_CODES",
    "CARD_POINTS",
    "COINS",
    "DECK",
    "FORMAT",
    "SUIT_LETTERS",
    "SUIT_NAMES",
    "TRICKS_PER_HAND",
    "GameOver",
    "GameState",
    "HandRecord",
    "IllegalPlay",
    "InvalidRecord",
    "NotACard",
    "NotInHand",
    "NotYourTurn",
    "SeatView",
    "TrickCase",
    "TrickRecord",
    "bot_players",
    "card_code",
    "card_name",
    "deal",
    "deck_from_seed",
    "first_dealer_from_seed",
    "new_seed",
    "parse_card",
    "rank_of",
    "record_json",
    "record_of",
    "resolve_trick",
    "state_from_record",
    "suit_of",
    "trick_case",
    "trick_winner",
    "verify_public_record",
]
