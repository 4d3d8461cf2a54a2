"""What a day of the daily duplicate is made of: its date, its games and their seeds.

The seed of game ``n`` of a day is an HMAC of the day and ``n`` under a server secret
(``COINS_DUPLICATE_SECRET``, by default ``SECRET_KEY``): the same for everyone who plays it,
and nobody can work out a day's deals from public data before playing them.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, time, timedelta

from django.conf import settings


def today() -> date:
    """The duplicate's day now: the UTC date (or ``COINS_DUPLICATE_TODAY``, which tests that
    run servers of their own set, so that no run can cross midnight)."""
    if settings.COINS_DUPLICATE_TODAY:
        return date.fromisoformat(settings.COINS_DUPLICATE_TODAY)
    return datetime.now(UTC).date()


def is_closed(day: date) -> bool:
    """A day closes at midnight UTC: from then on its best replays are open to all."""
    return day < today()


def day_end(day: date) -> datetime:
    """When ``day`` closes: a result counts if its game finished before."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


def numbers() -> range:
    """The numbers of a day's games, 1 to ``COINS_DUPLICATE_GAMES``."""
    return range(1, settings.COINS_DUPLICATE_GAMES + 1)


def seed_of(day: date, number: int) -> str:
    """The secret seed of game ``number`` of ``day`` (64 hex digits, the field's size)."""
    secret = (settings.COINS_DUPLICATE_SECRET or settings.SECRET_KEY).encode()
    message = f"coins/duplicate/{day.isoformat()}/{number}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()
