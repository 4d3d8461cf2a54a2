"""Challenges: one account invites another to a game, through the API or from the site.

A challenge is open until the challenged accepts or declines it, the challenger cancels it,
or ``COINS_API_CHALLENGE_TTL`` seconds pass (then it is expired, whether or not a row says
so yet: ``status_of`` judges by the clock). Every answer locks the challenge's row first,
so of 50 accepts at once one makes the game and the others find it answered.

``seats`` are the two seats after the challenger's (seat 0), in order: ``"challenged"``
once, and a site bot level (``easy``, ``medium``, ``hard``...) for the other.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import LEVEL_BOTS
from games.models import Game
from games.table.errors import GameError
from games.table.seats import check_table_limits, game_create_for

from .http import ApiError
from .limits import take_challenge
from .models import ApiToken, Challenge
from .services import table_options

CHALLENGED = "challenged"
Status = Challenge.Status


def _seats(data: dict) -> list[str]:
    seats = data.get("seats", [CHALLENGED, "medium"])
    if (
        not isinstance(seats, list)
        or len(seats) != 2
        or seats.count(CHALLENGED) != 1
        or any(kind != CHALLENGED and kind not in LEVEL_BOTS for kind in seats)
    ):
        raise ApiError(
            400,
            _('seats gives seats 1 and 2: "challenged" once, and one of: %(levels)s.')
            % {"levels": ", ".join(LEVEL_BOTS)},
        )
    return seats


def expiry_cutoff(now=None):
    """Challenges made before this moment are expired."""
    return (now or timezone.now()) - timedelta(seconds=settings.COINS_API_CHALLENGE_TTL)


def status_of(challenge: Challenge, now=None) -> str:
    """The challenge's status now: an open one past its time is expired."""
    if challenge.status == Status.OPEN and challenge.created_at <= expiry_cutoff(now):
        return Status.EXPIRED
    return challenge.status


def challenge_data(challenge: Challenge, now=None) -> dict:
    """The challenge as the API and the event stream show it."""
    return {
        "id": str(challenge.pk),
        "challenger": challenge.challenger.get_username(),
        "challenged": challenge.challenged.get_username(),
        "target": challenge.target,
        "rated": challenge.rated,
        "clock": challenge.clock,
        "seats": challenge.seats,
        "status": status_of(challenge, now),
        "game": str(challenge.game_id) if challenge.game_id else None,
    }


def challenge_create(
    *, challenger, username: object, data: dict, token: ApiToken | None = None
) -> Challenge:
    """``challenger`` (through ``token``, or from the site) challenges ``username``; 404 if
    there is no such active account."""
    target, rated, clock = table_options(data)
    seats = _seats(data)
    challenged = (
        get_user_model().objects.filter(username=username, is_active=True).first()
        if isinstance(username, str)
        else None
    )
    if challenged is None:
        raise ApiError(404, _("There is no such player."))
    if challenged.pk == challenger.pk:
        raise ApiError(400, _("You cannot challenge yourself."))
    take_challenge(user=challenger, token=token)
    return Challenge.objects.create(
        challenger=challenger,
        challenged=challenged,
        target=target,
        rated=rated,
        clock=clock,
        seats=seats,
    )


def _locked(challenge_id: int, user, *, side: str) -> Challenge:
    """The challenge's row, locked, if ``user`` is its ``side`` (challenger or challenged);
    ApiError 404 otherwise, 409 if it is no longer open."""
    challenge = (
        Challenge.objects.select_for_update()
        .filter(pk=challenge_id, **{side: user})
        .select_related("challenger", "challenged")
        .first()
    )
    if challenge is None:
        raise ApiError(404, _("There is no such challenge."))
    if status_of(challenge) != Status.OPEN:
        raise ApiError(409, _("This challenge is %(status)s.") % {"status": status_of(challenge)})
    return challenge


def challenge_accept(*, user, challenge_id: int) -> Game:
    """The challenged accepts: the game is made with the agreed seats and starts."""
    with transaction.atomic():
        challenge = _locked(challenge_id, user, side="challenged")
        people = [challenge.challenger] + [
            challenge.challenged if kind == CHALLENGED else None for kind in challenge.seats
        ]
        try:
            for person in sorted((challenge.challenger, user), key=lambda p: p.pk):
                check_table_limits(person, opens_a_table=False, by_program=True)
            game = game_create_for(
                people=people,
                bot=tuple(LEVEL_BOTS[kind] for kind in challenge.seats if kind != CHALLENGED),
                target=challenge.target,
                clock=challenge.clock,
                is_rated=challenge.rated,
                is_public=True,
            )
        except GameError as refusal:
            raise ApiError(409, str(refusal)) from None
        challenge.status, challenge.game = Status.ACCEPTED, game
        challenge.save(update_fields=["status", "game", "updated_at"])
    return game


def challenge_close(*, user, challenge_id: int, side: str) -> Challenge:
    """The challenged declines it, or the challenger (``side``) cancels it."""
    with transaction.atomic():
        challenge = _locked(challenge_id, user, side=side)
        challenge.status = Status.DECLINED if side == "challenged" else Status.CANCELED
        challenge.save(update_fields=["status", "updated_at"])
    return challenge


def challenges_of(user, since=None, now=None) -> list[Challenge]:
    """The challenges ``user`` sent or received that are open, or (``since``) that changed
    since then; oldest first."""
    mine = Q(challenger=user) | Q(challenged=user)
    live = Q(status=Status.OPEN, created_at__gt=expiry_cutoff(now))
    if since is not None:
        # changed since, or open then (it may have expired since)
        live |= Q(updated_at__gte=since) | Q(
            status=Status.OPEN, created_at__gt=expiry_cutoff(since)
        )
    return list(
        Challenge.objects.filter(mine & live)
        .select_related("challenger", "challenged")
        .order_by("created_at", "pk")
    )


def incoming_for(user, now=None) -> list[Challenge]:
    """The open challenges made to ``user`` (the lobby's panel)."""
    return [c for c in challenges_of(user, now=now) if c.challenged_id == user.pk]


def sent_by(user, limit: int = 10) -> list[Challenge]:
    """The latest challenges ``user`` sent, newest first (``/challenges/``)."""
    return list(
        Challenge.objects.filter(challenger=user)
        .select_related("challenged")
        .order_by("-created_at", "-pk")[:limit]
    )
