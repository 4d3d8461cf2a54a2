"""One accept only: 50 accepts of one challenge at once make one game (the challenge's row
is locked); the event streams of both bots say ``challenge`` then ``gameStart``."""

import asyncio
import json

import pytest
from django.db import connection
from django.test import Client

from botapi.models import Challenge
from botapi.streams import event_lines
from games.models import Game
from games.realtime.db_threads import in_db_thread
from lab.benchmarks.bursts import at_once

from .conftest import make_bot_account

pytestmark = pytest.mark.django_db(transaction=True)
BOTH = ("bot:play", "challenge:write")
WAIT = 60  # seconds: only a broken stream waits this long


def bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


def challenge(api, username: str) -> Challenge:
    body = {"target": 5, "rated": False, "seats": ["challenged", "easy"]}
    response = api.post(f"/api/challenge/{username}", body, content_type="application/json")
    assert response.status_code == 201, response.content
    return Challenge.objects.get(pk=int(response.json()["id"]))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="bursts need PostgreSQL")
def test_fifty_accepts_at_once_make_one_game(robot, make_user, make_token):
    rival = make_bot_account(make_user("rival"))
    made = challenge(bearer(make_token(robot, BOTH)), "rival")
    secret = make_token(rival, BOTH)
    clients = [bearer(secret) for _n in range(50)]
    responses = at_once([lambda c=c: c.post(f"/api/challenge/{made.pk}/accept") for c in clients])
    assert not [r for r in responses if isinstance(r, Exception)], responses
    codes = sorted(r.status_code for r in responses)
    assert codes == [200] + [409] * 49
    assert Game.objects.count() == 1
    made.refresh_from_db()
    assert made.status == "accepted" and made.game == Game.objects.get()


async def next_event(lines) -> dict:
    while not (raw := await asyncio.wait_for(anext(lines), WAIT)).strip():
        pass
    return json.loads(raw)


async def test_both_event_streams_see_the_challenge_then_the_game(
    robot, make_user, make_token, settings
):
    settings.COINS_API_POLL = 0.02
    rival = await in_db_thread(lambda: make_bot_account(make_user("rival")))()
    api = bearer(await in_db_thread(make_token)(robot, BOTH))
    rival_api = bearer(await in_db_thread(make_token)(rival, BOTH))
    made = await in_db_thread(challenge)(api, "rival")
    mine, theirs = event_lines(robot), event_lines(rival)
    for lines in (mine, theirs):
        event = await next_event(lines)
        assert event["type"] == "challenge" and event["challenge"]["id"] == str(made.pk)
        assert event["challenge"]["status"] == "created"
    answer = await in_db_thread(rival_api.post)(f"/api/challenge/{made.pk}/accept")
    game_id = answer.json()["game"]["id"]
    for lines in (mine, theirs):
        assert await next_event(lines) == {"type": "gameStart", "game": {"id": game_id}}
        await lines.aclose()


async def test_a_canceled_challenge_reaches_the_challenged_stream(
    robot, make_user, make_token, settings
):
    settings.COINS_API_POLL = 0.02
    rival = await in_db_thread(lambda: make_bot_account(make_user("rival")))()
    api = bearer(await in_db_thread(make_token)(robot, BOTH))
    made = await in_db_thread(challenge)(api, "rival")
    theirs = event_lines(rival)
    assert (await next_event(theirs))["type"] == "challenge"
    await in_db_thread(api.post)(f"/api/challenge/{made.pk}/cancel")
    event = await next_event(theirs)
    assert event["type"] == "challengeCanceled" and event["challenge"]["status"] == "canceled"
    await theirs.aclose()
