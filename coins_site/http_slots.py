"""At most a few page requests at once in each server process; the others wait their turn on
the event loop (costing nothing meanwhile) or, past a bounded queue, are told to come back.

Django runs each request's view in a thread of its own, and threads share one interpreter
lock with the event loop that serves the tables' sockets: 50 requests at once (a flood, or
a crowd) would be 50 threads taking turns with every table of the process. A handful at a
time keep the pages flowing and the tables quick; a flood waits on itself.
"""

from __future__ import annotations

import asyncio

from django.conf import settings

from coins_site.monitoring import throttled

BUSY = (
    b"<!doctype html><meta charset=utf-8><title>Busy</title>"
    b"<p>The site is very busy right now: try again in a few seconds.</p>"
)


# The Bot API's streams stay open for a whole game on the event loop (their database reads
# are short, in database threads): they must not hold a slot meant for a page.
STREAMS = ("/api/stream/", "/api/bot/game/stream/")


API = "/api/"  # the Bot API's requests: a program's moves, each a short post


class Lane:
    """``at_once`` requests at once, at most ``queue`` waiting (503 beyond)."""

    def __init__(self, at_once: int, queue: int):
        self.at_once, self.queue = at_once, queue
        self.slots: dict[int, asyncio.Semaphore] = {}  # one per event loop
        self.waiting = 0

    async def serve(self, app, scope, receive, send):
        slots = self.slots.setdefault(
            id(asyncio.get_running_loop()), asyncio.Semaphore(self.at_once)
        )
        if slots.locked() and self.waiting >= self.queue:
            throttled("http_busy")
            return await busy(send)
        self.waiting += 1
        try:
            await slots.acquire()
        finally:
            self.waiting -= 1
        try:
            return await app(scope, receive, send)
        finally:
            slots.release()


class HttpSlots:
    """ASGI middleware for HTTP: pages take ``COINS_HTTP_AT_ONCE`` at once and the Bot API's
    requests ``COINS_API_AT_ONCE`` in a lane of their own (a hundred bots' moves queued
    behind four page slots took 5.6 s a round trip: docs/benchmarks.md), each with at most
    ``COINS_HTTP_QUEUE`` waiting (503 beyond); streams pass without a slot."""

    def __init__(self, app):
        self.app = app
        self.pages = Lane(settings.COINS_HTTP_AT_ONCE, settings.COINS_HTTP_QUEUE)
        self.api = Lane(settings.COINS_API_AT_ONCE, settings.COINS_HTTP_QUEUE)

    async def __call__(self, scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith(STREAMS):
            return await self.app(scope, receive, send)
        lane = self.api if path.startswith(API) else self.pages
        if not lane.at_once:
            return await self.app(scope, receive, send)
        return await lane.serve(self.app, scope, receive, send)


async def busy(send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [(b"content-type", b"text/html; charset=utf-8"), (b"retry-after", b"3")],
        }
    )
    await send({"type": "http.response.body", "body": BUSY})
