"""The arena's API endpoints (Bearer token with ``bot:play``, a bot account's): join, leave
and ask where the bot stands. JSON answers and ``{"error"}`` refusals as the Bot API's."""

from __future__ import annotations

from botapi.http import ApiError, endpoint, json_body
from botapi.models import Scope

from . import services
from .models import Entrant


def arena_status(entrant: Entrant | None) -> dict:
    """``{"status", "reason", "games", "wins"}``: status ``out`` for a bot never in it."""
    if entrant is None:
        return {"status": "out", "reason": "", "games": 0, "wins": 0}
    return {
        "status": entrant.status,
        "reason": entrant.reason,
        "games": entrant.played,
        "wins": entrant.wins,
    }


def _served(call):
    try:
        return {"ok": True, "arena": arena_status(call())}
    except services.ArenaError as refusal:
        raise ApiError(refusal.status, str(refusal)) from None


@endpoint("POST", Scope.BOT_PLAY, bot=True)
def join(request, token):
    owner = json_body(request).get("owner")
    return _served(lambda: services.entry_join(user=token.user, owner=owner))


@endpoint("POST", Scope.BOT_PLAY, bot=True)
def leave(request, token):
    return _served(lambda: services.entry_leave(user=token.user))


@endpoint("GET", Scope.BOT_PLAY, bot=True)
def status(request, token):
    return {"arena": arena_status(services.entry_of(token.user))}
