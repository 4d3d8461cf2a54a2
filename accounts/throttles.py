"""Per-address limits on sign-ups and password-reset mails, counted in the shared cache
(Redis when there is one, so every server process sees the same counts). Log-in lockout is
django-axes' (settings.AXES_*). If the cache is down the limits let requests through: a
cache outage must not lock people out of their accounts."""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

HOUR = 3600


def limit(name: str) -> int:
    """A limit from settings (``COINS_SIGNUPS_PER_HOUR``, ``COINS_RESETS_PER_HOUR_FROM_ADDRESS``,
    ``COINS_RESETS_PER_HOUR_TO_EMAIL``)."""
    return getattr(settings, f"COINS_{name}")


def client_address(request) -> str:
    """The client's address as the server saw it (behind a proxy, run Daphne with
    ``--proxy-headers`` so that this is the visitor's, not the proxy's)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def count(kind: str, who: str, window: int = HOUR) -> int:
    """Add one to ``kind`` for ``who`` in the current window; return the new count."""
    key = f"throttle:{kind}:{who}:{int(time.time() // window)}"
    try:
        cache.add(key, 0, timeout=window + 60)
        return cache.incr(key)
    except Exception as error:
        log.warning("Throttle counter unavailable (%s): %s allowed", error, kind)
        return 0


def peek(kind: str, who: str, window: int = HOUR) -> int:
    """The current window's count for ``kind`` and ``who``, without adding to it."""
    try:
        return cache.get(f"throttle:{kind}:{who}:{int(time.time() // window)}", 0)
    except Exception:
        return 0
