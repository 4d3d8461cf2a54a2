"""Joining and leaving the arena, banning a bot account, and counting an arena game's end:
each one transaction, the entrant's row locked before what it protects is read."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts.selectors import is_bot_account
from common.kept_rows import row_exists
from games.models import Game, Seat
from games.table.errors import GameError

from .models import ArenaGame, ArenaSeat, Entrant

OWNER_LENGTH = 40


class ArenaError(GameError):
    """A request about the arena that cannot be served; ``status`` is its HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def _owner(owner: object) -> str | None:
    """The owner's name as given (None: not given); ArenaError 400 if it is no short text."""
    if owner is None:
        return None
    text = " ".join(owner.split()) if isinstance(owner, str) else None
    if text is None or len(text) > OWNER_LENGTH or not text.isprintable():
        raise ArenaError(_("owner is a name of at most %(n)d characters.") % {"n": OWNER_LENGTH})
    return text


def _locked_entrant(user) -> Entrant | None:
    return Entrant.objects.select_for_update().filter(user=user).first()


def entry_join(*, user, owner: object = None) -> Entrant:
    """Put the bot account ``user`` in the arena (or back in it, after a pause or leaving);
    a banned one is refused with 403."""
    owner = _owner(owner)
    if not is_bot_account(user):
        raise ArenaError(_("Only bot accounts play in the bot arena."), 403)
    with transaction.atomic():
        Entrant.objects.get_or_create(user=user)
        entrant = _locked_entrant(user)
        if entrant.status == Entrant.Status.BANNED:
            raise ArenaError(_("This bot account is banned from the arena."), 403)
        entrant.status, entrant.reason = Entrant.Status.ACTIVE, ""
        if owner is not None:
            entrant.owner = owner
        entrant.save(update_fields=["status", "reason", "owner", "changed_at"])
        return entrant


def entry_leave(*, user) -> Entrant:
    """Take ``user`` out of the arena: no new game (one under way is played to its end)."""
    with transaction.atomic():
        entrant = _locked_entrant(user)
        if entrant is None or entrant.status not in (Entrant.Status.ACTIVE, Entrant.Status.PAUSED):
            raise ArenaError(_("This bot is not in the arena."))
        entrant.status, entrant.reason = Entrant.Status.LEFT, ""
        entrant.save(update_fields=["status", "reason", "changed_at"])
        return entrant


def entry_of(user) -> Entrant | None:
    return Entrant.objects.filter(user=user).first()


def bots_ban(*, user_ids: list[int]) -> int:
    """Ban bot accounts: they can no longer sign in, use the API (their tokens stop working:
    ``token_find`` asks for an active user) or be seated in the arena. Return how many."""
    with transaction.atomic():
        users = get_user_model().objects.filter(pk__in=user_ids, profile__is_bot=True)
        ids = list(users.values_list("pk", flat=True))
        users.update(is_active=False)
        for user_id in ids:
            Entrant.objects.get_or_create(user_id=user_id)
        Entrant.objects.filter(user_id__in=ids).update(
            status=Entrant.Status.BANNED, reason=_("Banned by the staff.")
        )
        return len(ids)


def game_score(*, game_id: int) -> None:
    """Count an arena game's end once (inside the game's aftermath): games ended and wins
    of its entrants; an account that lost its seat to its clock is paused until it joins
    again."""
    if not row_exists(ArenaGame, game_id=game_id, scored=False):  # most games: a plain look
        return
    arena_game = ArenaGame.objects.select_for_update().filter(game_id=game_id, scored=False).first()
    if arena_game is None:
        return
    arena_game.scored = True
    arena_game.save(update_fields=["scored"])
    game = Game.objects.get(pk=game_id)
    seats = {seat.number: seat for seat in Seat.objects.filter(game_id=game_id)}
    arena_seats = list(ArenaSeat.objects.filter(arena_game=arena_game).order_by("entrant_id"))
    ArenaSeat.objects.filter(arena_game=arena_game).update(live=False)
    entrants = (
        Entrant.objects.select_for_update()
        .filter(pk__in=[seat.entrant_id for seat in arena_seats])
        .order_by("pk")
    )
    by_pk = {entrant.pk: entrant for entrant in entrants}
    for arena_seat in arena_seats:
        won = game.status == Game.Status.FINISHED and game.winner_seat == arena_seat.number
        Entrant.objects.filter(pk=arena_seat.entrant_id).update(
            played=F("played") + 1, wins=F("wins") + int(won)
        )
        entrant, seat = by_pk[arena_seat.entrant_id], seats[arena_seat.number]
        if entrant.user_id and seat.stand_in:
            entrant.clock_losses += 1
            fields = ["clock_losses", "changed_at"]
            if entrant.status == Entrant.Status.ACTIVE:
                entrant.status = Entrant.Status.PAUSED
                entrant.reason = _("Lost game %(game)d to its clock: join again to play on.") % {
                    "game": game_id
                }
                fields += ["status", "reason"]
            entrant.save(update_fields=fields)
