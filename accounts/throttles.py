"""Counters behind the accounts' abuse limits, kept in the shared cache (Redis when REDIS_URL
is set, so every server process sees the same counts).

A limit is never read and then acted on: ``take`` adds one atomically (cache ``add`` then
``incr``) and answers whether that slot was within the limit, so 50 parallel requests never
pass a limit of 5. A request that takes slots before some costly work (hashing a password)
can ``give_back`` them when the work did not happen or did not count (a refusal, a
successful log-in). If the cache is down, ``take`` answers ``None`` and each caller falls
back (log-ins to django-axes's database counts; others let the request through): a cache
outage must never lock people out.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

log = logging.getLogger(__name__)

HOUR = 3600
RESERVED = "_coins_reserved"  # the request attribute listing the slots a request took


def limit(name: str) -> int:
    """A limit from settings, e.g. ``limit("SIGNUPS_PER_HOUR")`` is ``COINS_SIGNUPS_PER_HOUR``."""
    return getattr(settings, f"COINS_{name}")


def cool_off_seconds() -> int:
    """The log-in pause (``AXES_COOLOFF_TIME``), also the window of the password counters."""
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def client_address(request) -> str:
    """The client's address: ``REMOTE_ADDR``, which the trusted-proxy layer sets to the
    visitor's address behind a proxy. django-axes is given the same (``axes_client_address``)."""
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def axes_client_address(request) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: exactly ``client_address``, or ``None`` when there is none
    (axes keeps it in an address column)."""
    address = client_address(request)
    return None if address == "unknown" else address


def _key(kind: str, who) -> str:
    digest = hashlib.sha256(repr(who).encode()).hexdigest()[:40]
    return f"throttle:{kind}:{digest}"


def take(kind: str, who, allowed: int, window: int) -> bool | None:
    """Take one slot of ``kind`` for ``who``: ``True`` if it is one of the first ``allowed``
    in the window, ``False`` past them, ``None`` if the cache is unavailable.

    The window starts with the first slot and starts again when the last allowed slot is
    taken, so a limit reached pauses for a whole window.
    """
    key = _key(kind, who)
    try:
        for _attempt in range(3):
            cache.add(key, 0, timeout=window)
            try:
                taken = cache.incr(key)
            except ValueError:  # the key expired between add and incr
                continue
            if taken in (1, allowed):
                # 1: an incr racing an expiry may have made the key without a timeout.
                cache.touch(key, window)
            return taken <= allowed
    except Exception as error:  # any cache failure means "unknown"
        log.warning("Throttle counter unavailable (%s): %s falls back", error, kind)
    return None


def give_back(kind: str, who) -> None:
    """Return one slot of ``kind`` for ``who`` (nothing if the window is over)."""
    with contextlib.suppress(Exception):  # gone or unreachable: nothing to give back
        cache.decr(_key(kind, who))


def clear(kind: str, who) -> None:
    """Forget every slot of ``kind`` taken for ``who``."""
    with contextlib.suppress(Exception):  # unreachable: the window ends by itself
        cache.delete(_key(kind, who))


def reserve(request, kind: str, who, allowed: int, window: int) -> bool | None:
    """``take`` a slot on behalf of ``request``, remembered there so that ``give_back_all``
    can return it if the work it was taken for does not happen."""
    within = take(kind, who, allowed, window)
    if within is not None:
        request.__dict__.setdefault(RESERVED, []).append((kind, who))
    return within


def give_back_all(request) -> None:
    """Return every slot ``request`` reserved (it was refused, or could not hash)."""
    for kind, who in request.__dict__.pop(RESERVED, []):
        give_back(kind, who)


def reserved(request) -> list[tuple[str, object]]:
    """The slots ``request`` holds, as ``(kind, who)``."""
    return list(request.__dict__.get(RESERVED, []))


def forget_reservations(request) -> None:
    """Keep the slots ``request`` took for good (the work was done and counts)."""
    request.__dict__.pop(RESERVED, None)


def count(kind: str, who: str, window: int = HOUR) -> int:
    """Add one to ``kind`` for ``who`` in the current window; return the new count (0 if
    the cache is down). Atomic: compare the answer with the limit (games.table.hints does)."""
    key = f"throttle:{kind}:{who}:{int(time.time() // window)}"
    try:
        cache.add(key, 0, timeout=window + 60)
        return cache.incr(key)
    except Exception as error:
        log.warning("Throttle counter unavailable (%s): %s allowed", error, kind)
        return 0
