"""At most a few page requests at once in each server process; the others wait their turn on
the event loop (costing nothing meanwhile) or, past a bounded queue, are told to come back.

Django runs each request's view in a thread of its own, and threads share one interpreter
lock with the event loop that serves the tables' sockets: 50 requests at once (a flood, or
a crowd) would be 50 threads taking turns with every table of the process. A page's work is
mostly Python holding that lock, so a second page at once adds no throughput: it only
takes the lock from the loop more often. With four at once, a wave of "Play now" clicks
(8 ms of CPU each) left the loop a fifth of the lock and the tables' cards waited: one at a
time, the p99 of 200 tables on two servers fell from 76-84 ms to 37-43 ms (issue 31).

A request that waits without the lock gives its slot back meanwhile (``slot_set_aside``):
a password hash, 0.25 s of ``hashlib`` that releases the lock, holds up no other page.
"""

from __future__ import annotations

import asyncio
import contextvars
from contextlib import contextmanager

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


_held: contextvars.ContextVar = contextvars.ContextVar("page_slot", default=None)


class HeldSlot:
    """The slot a request holds, on its event loop: given back and taken again from the
    request's thread while it waits on something that does not need the interpreter."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slots: asyncio.Semaphore):
        self.loop, self.slots, self.held = loop, slots, True
        self.done = False  # the request has ended (its thread may still be running)

    def release(self) -> None:
        if self.held:
            self.held = False
            self.slots.release()

    def finish(self) -> None:
        self.done = True
        self.release()


@contextmanager
def slot_set_aside():
    """In a page's thread, around work that runs without the interpreter lock: the page's
    slot goes to the next request meanwhile and is taken again (waiting its turn) after.
    Anywhere else (no slot held, or on the event loop itself) it does nothing."""
    held = _held.get()
    if held is None or not held.held or _on_loop(held.loop):
        yield
        return
    held.loop.call_soon_threadsafe(held.release)
    try:
        yield
    finally:
        asyncio.run_coroutine_threadsafe(_take_again(held), held.loop).result()


async def _take_again(held: HeldSlot) -> None:
    if held.done:
        return
    await held.slots.acquire()
    held.held = True
    if held.done:  # the request ended meanwhile (cancelled): nobody else would give it back
        held.release()


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:  # a thread with no loop: the request's own
        return False


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
        held = HeldSlot(asyncio.get_running_loop(), slots)
        token = _held.set(held)
        try:
            return await app(scope, receive, send)
        finally:
            _held.reset(token)
            held.finish()


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
