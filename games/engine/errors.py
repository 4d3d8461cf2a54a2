"""Why a play or a record was refused.

Every message speaks only of what the player who made the play may know: a card that is not
in *your* hand, never whose hand it is in.
"""


class IllegalPlay(Exception):
    """A play the rules refuse; the game state is left unchanged."""

    code = "illegal_play"


class NotACard(IllegalPlay, ValueError):
    """The value is not one of the 48 card codes."""

    code = "not_a_card"


class GameOver(IllegalPlay):
    """The game has already ended."""

    code = "game_over"


class NotYourTurn(IllegalPlay):
    """Another seat is due to play."""

    code = "not_your_turn"


class NotInHand(IllegalPlay):
    """The card is not among the cards the seat holds."""

    code = "not_in_hand"


class InvalidRecord(ValueError):
    """A `coins-record/1` document that is malformed or contradicts the rules."""
