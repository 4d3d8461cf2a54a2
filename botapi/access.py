"""Which games a token's owner may ask about: the site's rule for pages (public tables,
tables opened to everyone by their app, tables they sit at), judged by the token's owner,
never by a session."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.table.invites import policy_of

from .http import ApiError


def game_for(user, game_id: int) -> Game:
    """The game if ``user`` may see it; ApiError 404 for a missing and a hidden one alike."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None and (
        game.is_public
        or policy_of(game).get("open")
        or Seat.objects.filter(game=game, user=user).exists()
    ):
        return game
    raise ApiError(404, _("There is no such game."))


def seat_of(user, game_id: int) -> tuple[Game, int]:
    """The game and the seat ``user`` holds at it; ApiError 404 if there is none."""
    seat = Seat.objects.filter(game_id=game_id, user=user).select_related("game").first()
    if seat is None:
        raise ApiError(404, _("You have no seat at this game."))
    return seat.game, seat.number
