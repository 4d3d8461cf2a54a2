"""A server process works on a few page requests at once; the others wait their turn, and
past a bounded queue are told to come back (503) instead of piling up threads."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.hashers import PBKDF2PasswordHasher

from accounts.hashers import BoundedPBKDF2PasswordHasher
from coins_site.http_slots import HttpSlots, slot_set_aside


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


def _lane_of_one(settings, view):
    """Pages one at a time, each running ``view`` in a thread of its own, as Django does."""
    settings.COINS_HTTP_AT_ONCE, settings.COINS_HTTP_QUEUE = 1, 10

    async def site(scope, receive, send):
        await sync_to_async(view, thread_sensitive=False)(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})

    return HttpSlots(site)


async def test_a_password_hash_gives_its_page_slot_to_the_next_page(settings, monkeypatch):
    """One page at a time, but a hash (which runs without the interpreter lock) holds up no
    other page: the slot serves another request meanwhile and is taken again after."""
    hashing, go_on = threading.Event(), threading.Event()

    def slow_hash(hasher, password, salt, iterations=None):
        hashing.set()
        go_on.wait(30)
        return "hashed"

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", slow_hash)
    hashed = []

    def view(path):
        if path == "/accounts/login/":
            hashed.append(BoundedPBKDF2PasswordHasher().encode("secret", "salt"))

    middleware = _lane_of_one(settings, view)
    login = asyncio.create_task(ask(middleware, {"type": "http", "path": "/accounts/login/"}))
    await until(hashing.is_set)
    assert await ask(middleware, {"type": "http", "path": "/games/"}) == 200  # meanwhile
    assert not login.done()
    go_on.set()
    assert await login == 200 and hashed == ["hashed"]
    assert middleware.pages.slots[id(asyncio.get_running_loop())]._value == 1  # given back


async def test_a_page_ended_while_its_slot_was_set_aside_leaves_the_slot_free(settings):
    """The request's task cancelled (its client gone) while its thread still hashes: the
    thread takes the slot again after, and gives it back, or pages would stop for good."""
    aside, go_on, done = threading.Event(), threading.Event(), threading.Event()

    def view(path):
        if path == "/slow/":
            with slot_set_aside():
                aside.set()
                go_on.wait(30)
            done.set()

    middleware = _lane_of_one(settings, view)
    slow = asyncio.create_task(ask(middleware, {"type": "http", "path": "/slow/"}))
    await until(aside.is_set)
    slow.cancel()
    go_on.set()
    await until(done.is_set)
    async with asyncio.timeout(30):  # a slot kept for good would leave this page waiting
        assert await ask(middleware, {"type": "http", "path": "/games/"}) == 200
    await until(lambda: middleware.pages.slots[id(asyncio.get_running_loop())]._value == 1)


def test_set_aside_outside_a_page_does_nothing():
    with slot_set_aside():
        pass
