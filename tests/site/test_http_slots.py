"""A server process works on a few page requests at once; the others wait their turn, and
past a bounded queue are told to come back (503) instead of piling up threads."""

import asyncio

import pytest

from coins_site.http_slots import HttpSlots


@pytest.fixture
def slots(settings):
    settings.COINS_HTTP_AT_ONCE, settings.COINS_HTTP_QUEUE = 2, 3
    settings.COINS_API_AT_ONCE = 4
    state = {"inside": 0, "most": 0}
    release = asyncio.Event()

    async def site(scope, receive, send):
        state["inside"] += 1
        state["most"] = max(state["most"], state["inside"])
        await release.wait()
        state["inside"] -= 1
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 200, "headers": []})

    return HttpSlots(site), state, release


async def until(condition, seconds: float = 5.0) -> None:
    """Let the other tasks run until ``condition()`` holds (no guessed pause: a loaded
    machine only makes it take longer)."""
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0)


async def ask(middleware, scope) -> int:
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    await middleware(scope, receive, send)
    return sent[0]["status"]


async def test_two_at_once_three_waiting_the_rest_told_to_come_back(slots):
    middleware, state, release = slots
    scope = {"type": "http", "method": "GET"}
    asks = [asyncio.create_task(ask(middleware, dict(scope))) for _ in range(10)]
    # Every request has arrived: five told to come back, two inside, three waiting.
    await until(lambda: sum(task.done() for task in asks) == 5 and state["inside"] == 2)
    assert state["inside"] == 2 and all(task.result() == 503 for task in asks if task.done())
    release.set()
    answers = await asyncio.gather(*asks)
    assert answers.count(200) == 5 and answers.count(503) == 5
    assert state["most"] == 2


async def test_sockets_do_not_wait_for_a_slot(slots):
    middleware, state, release = slots
    scope = {"type": "websocket"}
    sockets = [asyncio.create_task(middleware(dict(scope), None, None)) for _ in range(10)]
    await until(lambda: state["inside"] == 10)  # all at once, none waiting for a slot
    release.set()
    await asyncio.gather(*sockets)


async def test_the_bot_api_has_a_lane_of_its_own(slots):
    """Pages filling their two slots hold up no program's move: the API's four are apart."""
    middleware, state, release = slots
    pages = [
        asyncio.create_task(ask(middleware, {"type": "http", "path": "/games/"})) for _ in range(2)
    ]
    await until(lambda: state["inside"] == 2)
    moves = [
        asyncio.create_task(ask(middleware, {"type": "http", "path": "/api/bot/game/1/play/3O"}))
        for _ in range(6)
    ]
    await until(lambda: state["inside"] == 6)  # two pages and four moves, two moves waiting
    assert state["inside"] == 6
    release.set()
    assert await asyncio.gather(*pages, *moves) == [200] * 8
    assert state["most"] == 6
