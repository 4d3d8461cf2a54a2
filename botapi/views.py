"""The API's endpoints that answer at once (the streams are ``botapi.streams``). Each view
is thin: read the request, call one service, answer JSON."""

from __future__ import annotations

import json
from pathlib import Path

from django.http import HttpResponse
from django.utils.translation import gettext as _

from games.engine import record_json
from games.history.records import game_record

from . import challenges, services
from .access import game_for
from .http import ApiError, endpoint, json_body
from .models import Scope

OPENAPI = Path(__file__).with_name("openapi.json")
BOT_PLAY = Scope.BOT_PLAY
CHALLENGE_WRITE = Scope.CHALLENGE_WRITE


@endpoint("POST", BOT_PLAY)
def account_upgrade(request, token):
    services.account_upgrade(user=token.user)
    return {"ok": True}


@endpoint("POST", BOT_PLAY, bot=True)
def game_create(request, token):
    game = services.api_game_create(token=token, data=json_body(request))
    return 201, {"id": str(game.pk)}


@endpoint("POST", BOT_PLAY, bot=True)
def card_play(request, token, game_id: int, card: str):
    moves = services.api_card_play(token=token, game_id=game_id, card=card)
    return {"ok": True, "moves": moves}


@endpoint("POST", BOT_PLAY, bot=True)
def resign(request, token, game_id: int):
    services.api_resign(token=token, game_id=game_id)
    return {"ok": True}


@endpoint("POST", BOT_PLAY, bot=True)
def chat(request, token, game_id: int):
    services.api_chat(token=token, game_id=game_id, text=json_body(request).get("text"))
    return {"ok": True}


@endpoint("POST", CHALLENGE_WRITE)
def challenge_create(request, token, username: str):
    challenge = challenges.challenge_create(
        challenger=token.user, username=username, data=json_body(request), token=token
    )
    return 201, challenges.challenge_data(challenge)


@endpoint("POST", CHALLENGE_WRITE)
def challenge_accept(request, token, challenge_id: int):
    game = challenges.challenge_accept(user=token.user, challenge_id=challenge_id)
    return {"ok": True, "game": {"id": str(game.pk)}}


@endpoint("POST", CHALLENGE_WRITE)
def challenge_decline(request, token, challenge_id: int):
    challenges.challenge_close(user=token.user, challenge_id=challenge_id, side="challenged")
    return {"ok": True}


@endpoint("POST", CHALLENGE_WRITE)
def challenge_cancel(request, token, challenge_id: int):
    challenges.challenge_close(user=token.user, challenge_id=challenge_id, side="challenger")
    return {"ok": True}


@endpoint("GET", BOT_PLAY)
def game_record_view(request, token, game_id: int):
    """The game's coins-record/1 as record.json gives it: public while it runs, whole once
    it is over; the same 404 for a missing game and a private one of others."""
    game = game_for(token.user, game_id)
    if not game.was_dealt:
        raise ApiError(404, _("This game has not started."))
    return json.loads(record_json(game_record(game)))


def openapi(request):
    """The hand-kept OpenAPI description of the API (tests hold it to the URLs and views)."""
    return HttpResponse(OPENAPI.read_bytes(), content_type="application/json")

