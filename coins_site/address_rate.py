"""A cheap first refusal for floods from one address: form posts and socket openings beyond a
burst and a steady rate are turned away before Django sees them.

The site's real limits (log-in failures, sign-ups, tables, sockets) are counted atomically in
the cache or the database and hold whatever arrives; but each refused request still costs a
session, a CSRF check and a rendered form, and 50 of them at once cost the process's other
users hundreds of milliseconds. A person never posts 20 forms or opens 30 sockets in a
moment, so past that an address gets a 429 (or a refused handshake) costing microseconds.
Buckets live in each server process (a process's own protection, not a shared limit).
Behind a proxy this sees the visitor's address (``coins_site.proxies`` runs first).
"""

from __future__ import annotations

import time

from django.conf import settings

from coins_site.monitoring import throttled

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The Bot API counts its own requests, per token and per account, and answers in JSON
# (botapi/limits.py): a bot at several tables posts more than a person ever does.
API = "/api/"
FORGET_AFTER = 120.0  # seconds an idle address's bucket is kept
REFUSAL = (
    b"<!doctype html><meta charset=utf-8><title>Too many requests</title>"
    b"<p>Too many requests from your address at once: wait a few seconds, then try again.</p>"
)


class Buckets:
    """Token buckets by key: ``burst`` at once, then ``per_second``."""

    def __init__(self, burst: float, per_second: float, clock=time.monotonic):
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)
        self.swept = clock()

    def take(self, key: str) -> bool:
        now = self.clock()
        tokens, when = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.per_second)
        allowed = tokens >= 1
        self.buckets[key] = (tokens - 1 if allowed else tokens, now)
        if now - self.swept > FORGET_AFTER:
            self.sweep(now)
        return allowed

    def sweep(self, now: float) -> None:
        self.swept = now
        self.buckets = {
            key: value for key, value in self.buckets.items() if now - value[1] < FORGET_AFTER
        }


class AddressRateGuard:
    """ASGI middleware: form posts and socket openings by address."""

    def __init__(self, app):
        self.app = app
        self.posts = Buckets(
            settings.COINS_ADDRESS_POST_BURST, settings.COINS_ADDRESS_POSTS_PER_SECOND
        )
        self.sockets = Buckets(
            settings.COINS_ADDRESS_SOCKET_BURST, settings.COINS_ADDRESS_SOCKETS_PER_SECOND
        )

    async def __call__(self, scope, receive, send):
        client = scope.get("client")
        if client:
            if scope["type"] == "http" and scope.get("method") in WRITES:
                if not scope.get("path", "").startswith(API) and not self.posts.take(client[0]):
                    return await refuse_request(send)
            elif scope["type"] == "websocket" and not self.sockets.take(client[0]):
                throttled("address_sockets")
                return await send({"type": "websocket.close", "code": 1008})
        return await self.app(scope, receive, send)


async def refuse_request(send) -> None:
    throttled("address_posts")
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"retry-after", b"5"),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": REFUSAL})
