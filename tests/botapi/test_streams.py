"""The NDJSON streams in the server's event loop: a card played anywhere reaches the game
stream through the channel layer, or through the database when the layer is down; empty
lines keep a quiet stream alive; the event stream announces games starting and ending."""

import asyncio
import json

import pytest
from django.test import AsyncClient, Client

from botapi import streams
from botapi.streams import event_lines, game_lines
from games.realtime.db_threads import in_db_thread
from games.table import flow

from .helpers import my_cards, open_game

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 60  # seconds: only a broken stream waits this long


async def next_line(lines) -> dict | None:
    raw = await asyncio.wait_for(anext(lines), WAIT)
    return json.loads(raw) if raw.strip() else None


async def next_event(lines) -> dict:
    while (data := await next_line(lines)) is None:
        pass
    return data


class DownLayer:
    """A channel layer whose server is away."""

    async def new_channel(self):
        return "specific.down!1"

    async def group_add(self, group, channel):
        raise OSError("Connection refused")


@pytest.mark.parametrize("layer", ["up", "down"])
async def test_a_card_reaches_the_game_stream(robot, api, settings, monkeypatch, layer):
    """Up, only the layer's wake can bring the card (no keepalive falls within the test);
    down, the stream reads the database every ``COINS_API_POLL``."""
    settings.COINS_API_POLL = 0.02
    if layer == "up":
        settings.COINS_API_KEEPALIVE = 3600
    else:
        monkeypatch.setattr(streams, "get_channel_layer", lambda alias="default": DownLayer())
    game = await in_db_thread(open_game)(api)
    lines = game_lines(robot, game.pk, 0)
    full = await next_event(lines)
    assert full["type"] == "gameFull"
    card = (await in_db_thread(my_cards)(game))[0]
    result = await in_db_thread(flow.play_card)(
        game_id=game.pk, user=robot, card=card, by_program=True
    )
    states = [await next_event(lines) for _ in range(result.moves - game.moves)]
    assert [s["type"] for s in states] == ["gameState"] * len(states)
    assert states[0]["moves"][-1] == card and card not in states[-1]["hand"]
    await lines.aclose()


async def test_a_quiet_stream_sends_empty_lines(robot, api, settings):
    settings.COINS_API_KEEPALIVE = 0.01
    game = await in_db_thread(open_game)(api)
    lines = game_lines(robot, game.pk, 0)
    assert (await next_line(lines))["type"] == "gameFull"
    assert await asyncio.wait_for(anext(lines), WAIT) == b"\n"
    await lines.aclose()


async def test_the_game_stream_ends_with_the_game(robot, api):
    game = await in_db_thread(open_game)(api)
    lines = game_lines(robot, game.pk, 0)
    await next_event(lines)
    await in_db_thread(flow.resign)(game_id=game.pk, user=robot, by_program=True)
    assert (await next_event(lines))["status"] == "abandoned"
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(anext(lines), WAIT)


async def test_the_event_stream_starts_with_the_running_games_then_follows(robot, api, settings):
    settings.COINS_API_POLL = 0.02
    first = await in_db_thread(open_game)(api)
    lines = event_lines(robot)
    assert await next_event(lines) == {"type": "gameStart", "game": {"id": str(first.pk)}}
    second = await in_db_thread(open_game)(api)
    assert await next_event(lines) == {"type": "gameStart", "game": {"id": str(second.pk)}}
    await in_db_thread(flow.resign)(game_id=first.pk, user=robot, by_program=True)
    assert await next_event(lines) == {"type": "gameFinish", "game": {"id": str(first.pk)}}
    await lines.aclose()


async def test_a_stream_answers_ndjson(robot, api, make_token):
    game = await in_db_thread(open_game)(api)
    secret = await in_db_thread(make_token)(robot)
    response = await AsyncClient().get(
        f"/api/bot/game/stream/{game.pk}", headers={"Authorization": f"Bearer {secret}"}
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/x-ndjson"
    first = await asyncio.wait_for(anext(aiter(response.streaming_content)), WAIT)
    assert json.loads(first)["type"] == "gameFull"
    await response.streaming_content.aclose()


def test_streams_refuse_as_the_other_endpoints_do(robot, api, alice, make_token):
    game = open_game(api)
    assert Client().get("/api/stream/event").status_code == 401
    assert Client().get(f"/api/bot/game/stream/{game.pk}").status_code == 401
    assert api.post("/api/stream/event").status_code == 405
    assert api.get("/api/bot/game/stream/99999").status_code == 404
    person = Client(headers={"Authorization": f"Bearer {make_token(alice)}"})
    assert person.get(f"/api/bot/game/stream/{game.pk}").status_code == 403
