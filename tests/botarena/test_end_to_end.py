"""Two scripted bots, as outside programs would be: each joins the arena over HTTP, hears
of its arena game on the event stream, follows the game stream and plays its first legal
card each turn over HTTP, to the end of the game; a runner serves the site's bots."""

import asyncio
import json

import pytest
from django.test import AsyncClient

from botarena.models import ArenaGame, Entrant
from botarena.pairing import arena_tick
from games.models import Game
from games.realtime.db_threads import in_db_thread
from tests.games.helpers import serve_due

from .helpers import arena_bots

pytestmark = pytest.mark.django_db(transaction=True)
WAIT = 120  # seconds: only a broken stream waits this long


async def events(response):
    """The JSON lines of a streamed answer (the keep-alive empty lines skipped)."""
    async for raw in response.streaming_content:
        for text in raw.decode().splitlines():
            if text.strip():
                yield json.loads(text)


async def scripted_bot(secret: str) -> dict:
    """Join, wait for a game, play it out; return its last state."""
    client, token = AsyncClient(), {"Authorization": f"Bearer {secret}"}
    joined = await client.post(
        "/api/bot/arena/join", "", content_type="application/json", headers=token
    )
    assert joined.status_code == 200, joined.content
    assert joined.json()["arena"]["status"] == "active"
    stream = await client.get("/api/stream/event", headers=token)
    async for event in events(stream):
        if event["type"] == "gameStart":
            game_id = event["game"]["id"]
            break
    await stream.streaming_content.aclose()
    game = await client.get(f"/api/bot/game/stream/{game_id}", headers=token)
    seat, state = None, None
    async for line in events(game):
        if line["type"] == "gameFull":
            seat, state = line["seat"], line["state"]
        elif line["type"] == "gameState":
            state = line
        else:
            continue
        if state["status"] != "running":
            break
        if state["to_play"] == seat and state["legal"]:
            card = state["legal"][0]
            played = await client.post(f"/api/bot/game/{game_id}/play/{card}", headers=token)
            assert played.status_code in (200, 409), played.content  # 409: a stale state
    await game.streaming_content.aclose()
    return {"game": int(game_id), **state}


def serve_arena_games() -> None:
    for game_id in ArenaGame.objects.filter(scored=False).values_list("game_id", flat=True):
        serve_due(game_id)


async def runner(stop: asyncio.Event) -> None:
    while not stop.is_set():
        await in_db_thread(serve_arena_games)()
        await asyncio.sleep(0.01)


async def test_two_api_bots_play_their_arena_games_to_the_end(make_user, make_token, settings):
    settings.COINS_API_POLL = 0.02
    settings.COINS_TRICK_PAUSE = 0
    settings.COINS_BOT_ARENA_TARGET = 5
    bots = await in_db_thread(arena_bots)(make_user, 2)
    secrets = [await in_db_thread(make_token)(bot) for bot in bots]
    playing = [asyncio.ensure_future(scripted_bot(secret)) for secret in secrets]
    # they are in the arena already (join again is idempotent), and an event stream opens
    # with the running games: the order of the bots' requests and the pairing is free
    assert await in_db_thread(arena_tick)(games_at_once=2) == 2
    stop = asyncio.Event()
    serving = asyncio.ensure_future(runner(stop))
    try:
        ends = await asyncio.wait_for(asyncio.gather(*playing), WAIT)
    finally:
        stop.set()
        await serving
    await in_db_thread(serve_arena_games)()  # the aftermath: rated, counted
    assert [end["status"] for end in ends] == ["finished", "finished"]
    assert len({end["game"] for end in ends}) == 2

    def counted():
        return sorted(Entrant.objects.filter(user__in=bots).values_list("played", "status"))

    assert await in_db_thread(counted)() == [(1, "active"), (1, "active")]
    statuses = await in_db_thread(lambda: set(Game.objects.values_list("status", flat=True)))()
    assert statuses == {Game.Status.FINISHED}
