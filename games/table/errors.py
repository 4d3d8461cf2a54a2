"""Refusals of requests about a game (the game row lock is ``lifecycle.locked_game``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import CARD_CODES
from games.models import Game, Play


class GameError(Exception):
    """A request about a game that cannot be honoured; the message is for the requester."""

    code = "game_error"


class GameNotFound(GameError):
    code = "not_found"


class NotSeated(GameError):
    code = "not_seated"


class GameNotRunning(GameError):
    code = "not_running"


class SeatUnavailable(GameError):
    code = "seat_unavailable"


class TableMovedOn(GameError):
    """A card sent for an earlier move of the game (a page re-sending a card it was not sure
    had arrived). ``already_played``: that very card was played then, so nothing is wrong."""

    code = "moved_on"

    def __init__(self, message: str, already_played: bool):
        super().__init__(message)
        self.already_played = already_played


def bot_account_refusal() -> NotSeated:
    """Bot accounts take seats and play only through the Bot API, never from a page."""
    return NotSeated(_("Bot accounts play only through the Bot API."))


def require_running(game: Game) -> None:
    if game.status == Game.Status.WAITING:
        raise GameNotRunning(_("The game has not started yet."))
    if game.status != Game.Status.IN_PROGRESS:
        raise GameNotRunning(_("The game is over."))


def move_count(value: int | str | None) -> int | None:
    """A page's move count (a form field), or None when the page sent none."""
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
        return int(value)
    raise GameError(_("That card came with a move number that is not valid."))


def moved_on(game: Game, seat: int, card: int, after_moves: int) -> TableMovedOn:
    """The refusal of a card chosen on an older board (a page sending it again): no
    refusal is shown if that very card was played then."""
    played = Play.objects.filter(
        game=game, sequence=after_moves, seat=seat, card=CARD_CODES[card], auto=False
    ).exists()
    return TableMovedOn(
        _("The table moved on before your card arrived: here it is now, play again."),
        already_played=played,
    )
