"""Rematch: "play again with the same people", offered at the end of a game.

The person who offers has accepted; the new table (same seats, same bots, same target and
options) starts as soon as every person of the old game has accepted. Anyone may decline,
and an offer nobody completes expires after ``OFFER_SECONDS``. Everything here runs under
the finished game's row lock, so two people accepting at once make one table.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.board.rematch_panel import is_open
from games.models import Game, Rematch, Seat
from games.realtime.push import notify_table
from games.table.errors import GameError
from games.table.lifecycle import locked_game, start_game
from games.table.seats import ME, game_create

OFFER_SECONDS = 60


class RematchRefused(GameError):
    code = "rematch_refused"


def rematch_accept(*, game_id: int, user) -> Rematch:
    """Offer a rematch, or accept the open offer; start the new table once all accepted."""
    with transaction.atomic():
        game, seat, seats = _finished_game_and_seat(game_id, user)
        offer = Rematch.objects.select_for_update().filter(game=game).first()
        if offer is not None and offer.new_game_id is not None:
            raise RematchRefused(_("The rematch has already started."))
        if not is_open(offer):
            offer = offer or Rematch(game=game)
            offer.offered_by = user
            offer.accepted = []
            offer.declined_by = None
            offer.expires_at = timezone.now() + timedelta(seconds=OFFER_SECONDS)
        if seat.number not in offer.accepted:
            offer.accepted = sorted([*offer.accepted, seat.number])
        if all(s.number in offer.accepted for s in seats if s.user_id is not None):
            offer.new_game = _start_again(game, seats, creator=offer.offered_by)
        offer.save()
        transaction.on_commit(partial(notify_table, game.pk, -1))
    return offer


def rematch_decline(*, game_id: int, user) -> Rematch:
    """Turn down (or withdraw) the open offer: it ends for everyone."""
    with transaction.atomic():
        game, _seat, _seats = _finished_game_and_seat(game_id, user)
        offer = Rematch.objects.select_for_update().filter(game=game).first()
        if not is_open(offer):
            raise RematchRefused(_("There is no rematch offer to decline."))
        offer.declined_by = user
        offer.save(update_fields=["declined_by"])
        transaction.on_commit(partial(notify_table, game.pk, -1))
    return offer


def _finished_game_and_seat(game_id: int, user):
    game = locked_game(game_id)
    if not game.is_over or not game.was_dealt:
        raise RematchRefused(_("A rematch is offered once the game is over."))
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    seat = next((s for s in seats if user.is_authenticated and s.user_id == user.pk), None)
    if seat is None:
        raise RematchRefused(_("Only the players of this game can ask for a rematch."))
    return game, seat, seats


def _start_again(game: Game, seats: list[Seat], creator) -> Game:
    """The same seats (people where people sat, the same bots), target and options."""
    kinds = [ME if s.user_id == creator.pk else s.bot or "open" for s in seats]
    new_game = game_create(
        creator=creator,
        target=game.target,
        seat_kinds=kinds,
        is_public=game.is_public,
        is_rated=game.is_rated,
        clock=game.clock,
    )
    others = {s.number: s.user_id for s in seats if s.user_id not in (None, creator.pk)}
    for number, user_id in others.items():
        Seat.objects.filter(game=new_game, number=number).update(user_id=user_id)
    if others:
        new_game.refresh_from_db()
        start_game(new_game)
    return new_game
