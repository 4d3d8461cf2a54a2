"""Why a play was refused, in the player's language.

The engine has no Django, so its refusals are in English; the services raise theirs already
translated. This gives the engine's refusals the same treatment before a player reads them.
"""

from django.utils.translation import gettext as _

from games.engine import GameOver, NotACard, NotInHand


def refusal_text(error: Exception) -> str:
    """The message to show the player whose request raised ``error``."""
    if isinstance(error, NotInHand):
        return _("That card is not in your hand.")
    if isinstance(error, NotACard):
        return _("That is not a card: use a rank 1-12 and a suit C, O, E or B, like 12O.")
    if isinstance(error, GameOver):
        return _("The game is over.")
    return str(error)  # a service's GameError or NotYourTurn: translated where raised
