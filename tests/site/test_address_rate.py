"""Floods from one address are turned away before Django: form posts and socket openings past
a burst and a rate, at almost no cost; other addresses and page loads are untouched."""

import asyncio

import pytest

from coins_site.address_rate import AddressRateGuard, Buckets
from tests.clock import FakeClock


def test_a_bucket_allows_its_burst_then_its_rate_per_key():
    clock = FakeClock()
    buckets = Buckets(burst=3, per_second=2, clock=clock)
    assert [buckets.take("a") for _ in range(4)] == [True, True, True, False]
    assert buckets.take("b")  # another address has its own
    clock.now += 0.5  # one more, at two a second
    assert buckets.take("a") and not buckets.take("a")


async def through(guard, scope) -> str:
    """Send one request through the guard: "app" if it reached the site, else the answer."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    await guard(scope, receive, send)
    if sent and sent[0]["type"] == "http.response.start":
        return str(sent[0]["status"])
    if sent and sent[0]["type"] == "websocket.close":
        return f"close {sent[0]['code']}"
    return "app"


@pytest.fixture
def guard(settings):
    settings.COINS_ADDRESS_POST_BURST, settings.COINS_ADDRESS_POSTS_PER_SECOND = 20, 2
    settings.COINS_ADDRESS_SOCKET_BURST, settings.COINS_ADDRESS_SOCKETS_PER_SECOND = 30, 5

    async def site(scope, receive, send):
        pass

    return AddressRateGuard(site)


def http(method: str, address: str) -> dict:
    return {"type": "http", "method": method, "client": (address, 1234), "headers": []}


async def test_fifty_posts_at_once_from_one_address_let_twenty_through(guard):
    answers = await asyncio.gather(
        *(through(guard, http("POST", "203.0.113.5")) for _ in range(50))
    )
    assert answers.count("app") == 20 and answers.count("429") == 30
    assert await through(guard, http("POST", "203.0.113.6")) == "app"  # someone else
    assert await through(guard, http("GET", "203.0.113.5")) == "app"  # pages still load


async def test_socket_openings_past_the_burst_are_refused(guard):
    scope = {"type": "websocket", "client": ("203.0.113.7", 1), "headers": []}
    answers = await asyncio.gather(*(through(guard, dict(scope)) for _ in range(50)))
    assert answers.count("app") == 30 and answers.count("close 1008") == 20


async def test_a_request_without_an_address_is_left_alone(guard):
    scope = {"type": "http", "method": "POST", "headers": []}
    assert all([await through(guard, dict(scope)) == "app" for _ in range(50)])
