"""Who is at a table right now: each person's seat connected or away, and how many watch.

Each open socket keeps one ``Presence`` row, refreshed every ``TOUCH_EVERY`` seconds; a
socket whose process was killed stops refreshing, and its row stops counting once it is
``STALE_AFTER`` old. So presence holds across processes and survives crashes without any
process having to say goodbye.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.utils import timezone

from .models import Presence

TOUCH_EVERY = 30  # seconds between a socket's refreshes of its row
STALE_AFTER = timedelta(seconds=75)

HERE, AWAY, BOT, OPEN = "here", "away", "bot", "open"


def presence_join(*, game_id: int, channel: str, user) -> dict:
    """Note a socket at the table; return the table's presence with it."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    Presence.objects.update_or_create(
        channel=channel,
        defaults={"game_id": game_id, "user_id": user_id, "seen_at": timezone.now()},
    )
    return presence_of(game_id)


def presence_leave(*, channel: str) -> dict | None:
    """Forget a closed socket; return its table's presence without it (None if unknown)."""
    game_id = Presence.objects.filter(channel=channel).values_list("game_id", flat=True).first()
    if game_id is None:
        return None
    Presence.objects.filter(channel=channel).delete()
    return presence_of(game_id)


def live_sockets_of(game_id: int, user) -> int:
    """How many live sockets ``user`` has open at the table."""
    alive = timezone.now() - STALE_AFTER
    return Presence.objects.filter(game_id=game_id, user=user, seen_at__gte=alive).count()


def presence_touch(*, channel: str) -> None:
    Presence.objects.filter(channel=channel).update(seen_at=timezone.now())


def presence_of(game_id: int) -> dict:
    """Who has a live socket at the table: the people (by id) and how many signed-out
    visitors, with the time it was read, so that a socket can ignore an older reading that
    arrives late. Seat states and the watcher count follow from it (``seat_presence``)."""
    present = list(
        Presence.objects.filter(
            game_id=game_id, seen_at__gte=timezone.now() - STALE_AFTER
        ).values_list("user_id", flat=True)
    )
    users = sorted({user_id for user_id in present if user_id is not None})
    return {"users": users, "anonymous": present.count(None), "at": time.time()}


def seat_presence(presence: dict, seats: list[dict]) -> tuple[list[str], int]:
    """Each seat's state (here, away, bot, open) and how many watch, from ``presence``
    and the table's seats as the board shows them."""
    present = set(presence["users"])
    states, seated = [], set()
    for seat in seats:
        if seat["is_bot"]:
            states.append(BOT)
        elif seat["user_id"] is None:
            states.append(OPEN)
        else:
            seated.add(seat["user_id"])
            states.append(HERE if seat["user_id"] in present else AWAY)
    return states, len(present - seated) + presence["anonymous"]
