"""Who is at a table right now: each person's seat connected or away, and how many watch.

Each open socket keeps one ``Presence`` row, refreshed every ``TOUCH_EVERY`` seconds; a
socket whose process was killed stops refreshing, and its row stops counting once it is
``STALE_AFTER`` old. So presence holds across processes and survives crashes without any
process having to say goodbye. A page's tab names itself when it connects, and its new row
replaces the row of its own earlier socket: a tab that reconnects after its socket died
(a Redis blip, a killed server) is never counted twice.

The same rows cap the sockets (``presence_join``): per person at one table and over all
tables, and for signed-out visitors per address and per table. The row is written first and
the caps counted after it is committed, so parallel connections can never all pass a cap
(at worst a burst refuses one too many); a refused socket's row is removed at once.
"""

from __future__ import annotations

import time
from datetime import timedelta
from functools import cache

from django.conf import settings
from django.db import connection
from django.utils import timezone

from common.kept_rows import adapted_moment, column, table_name
from games.models import Presence, Seat

TOUCH_EVERY = 30  # seconds between a socket's refreshes of its row
STALE_AFTER = timedelta(seconds=75)

HERE, AWAY, BOT, OPEN = "here", "away", "bot", "open"


class TooManySockets(Exception):
    """A cap refused the socket: ``reason`` is ``tabs`` (one person at one table),
    ``person`` (one person over all tables), ``address`` (signed-out sockets from one
    address) or ``watchers`` (signed-out sockets at one table)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def presence_join(*, game_id: int, channel: str, user, address: str | None, tab: str = "") -> dict:
    """Note a socket at the table; return the table's presence with it, or raise
    ``TooManySockets`` (and forget the socket) when a cap refuses it. Runs outside any
    transaction, so that the row is visible to every other connection before we count.
    Two statements (three with a tab): the row, then one count of this table's sockets by
    person (also the presence returned) with the viewer's own over all tables."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    if tab:  # the same tab's earlier socket, dead or closing: this one replaces it
        mine = Presence.objects.filter(user_id=user_id, tab=tab).exclude(channel=channel)
        _delete(mine if user_id else mine.filter(address=address))
    _note(game_id, channel, user_id, address if user_id is None else None, tab)
    sockets, everywhere = _sockets_here_and_everywhere(game_id, user_id, address)
    refusal = _over_a_cap(user_id, sockets, everywhere)
    if refusal:
        _delete(Presence.objects.filter(channel=channel))
        raise TooManySockets(refusal)
    # "sockets": how many are at the table with this one. Alone, it has no one to tell (the
    # usual game against bots); of two arriving together, the later one counts both.
    return {**_presence(sockets), "sockets": sum(sockets.values())}


def _over_a_cap(user_id: int | None, sockets: dict, everywhere: int) -> str:
    """The cap the live sockets (this one included) exceed, or "". ``sockets``: the live
    sockets at this table by person (None: signed out); ``everywhere``: the viewer's own
    over all tables (a signed-out viewer's: those of their address)."""
    if user_id is not None:
        if sockets.get(user_id, 0) > settings.COINS_MAX_SOCKETS:
            return "tabs"
        if everywhere > settings.COINS_MAX_SOCKETS_PER_PERSON:
            return "person"
        return ""
    if everywhere > settings.COINS_MAX_ANONYMOUS_PER_ADDRESS:
        return "address"
    if sockets.get(None, 0) > settings.COINS_MAX_ANONYMOUS_PER_TABLE:
        return "watchers"
    return ""


def _sockets_here_and_everywhere(
    game_id: int, user_id: int | None, address: str | None
) -> tuple[dict[int | None, int], int]:
    """The table's live sockets by person (None: the signed-out visitors), and the viewer's
    own live sockets over all tables: a person's, or a signed-out visitor's address's.
    One statement, written once per kind of viewer."""
    mine_key = user_id if user_id is not None else address
    statement = _here_and_everywhere_statement(user_id is not None, mine_key is None)
    since = connection.ops.adapt_datetimefield_value(timezone.now() - STALE_AFTER)
    params = [game_id, since, game_id]
    if mine_key is not None:
        params.insert(1, mine_key)
        params.append(mine_key)
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        rows = cursor.fetchall()
    sockets = {person: int(here) for person, here, _mine in rows if here}
    return sockets, sum(int(mine) for _person, _here, mine in rows)


@cache
def _here_and_everywhere_statement(person: bool, no_address: bool) -> str:
    table, seen = table_name(Presence), column(Presence, "seen_at")
    game, user = column(Presence, "game"), column(Presence, "user")
    if person:
        mine = f"{user} = %s"
    else:
        address = column(Presence, "address")
        mine = f"{user} IS NULL AND " + (f"{address} IS NULL" if no_address else f"{address} = %s")
    return (
        f"SELECT {user}, SUM(CASE WHEN {game} = %s THEN 1 ELSE 0 END),"
        f" SUM(CASE WHEN {mine} THEN 1 ELSE 0 END) FROM {table}"
        f" WHERE {seen} >= %s AND ({game} = %s OR ({mine})) GROUP BY {user}"
    )


def _note(game_id: int, channel: str, user_id: int | None, address: str | None, tab: str):
    """Insert (or refresh) the socket's row in one statement: ``bulk_create`` would wrap
    its upsert in a transaction of its own, two more round trips for nothing."""
    columns = {
        "game_id": game_id,
        "channel": channel,
        "user_id": user_id,
        "address": address,
        "tab": tab,
        "seen_at": connection.ops.adapt_datetimefield_value(timezone.now()),
    }
    names = ", ".join(columns)
    marks = ", ".join(["%s"] * len(columns))
    refreshed = ", ".join(f"{name} = excluded.{name}" for name in columns if name != "channel")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Presence._meta.db_table} ({names}) VALUES ({marks}) "
            f"ON CONFLICT (channel) DO UPDATE SET {refreshed}",
            list(columns.values()),
        )


def _delete(rows) -> None:
    """Delete ``rows`` in one statement: a queryset's ``delete`` wraps its one DELETE in a
    transaction of its own (two more round trips), for cascades a presence row has none of."""
    rows._raw_delete(rows.db)


def presence_leave(*, channel: str) -> bool:
    """Forget a closed socket; return whether another socket is still at its table (only
    then is there anyone to tell). One statement on PostgreSQL, two elsewhere."""
    table = connection.ops.quote_name(Presence._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH gone AS (DELETE FROM {table} WHERE channel = %s RETURNING game_id)"
                f" SELECT EXISTS (SELECT 1 FROM {table} AS p JOIN gone USING (game_id)"
                " WHERE p.channel <> %s)",
                [channel, channel],
            )
            return cursor.fetchone()[0]
        cursor.execute(f"DELETE FROM {table} WHERE channel = %s RETURNING game_id", [channel])
        gone = cursor.fetchone()
        if gone is None:
            return False
        cursor.execute(f"SELECT 1 FROM {table} WHERE game_id = %s LIMIT 1", [gone[0]])
        return cursor.fetchone() is not None


def presence_touch(*, channel: str) -> None:
    Presence.objects.filter(channel=channel).update(seen_at=timezone.now())


def presence_of(game_id: int) -> dict:
    """Who has a live socket at the table: the people (by id) and how many signed-out
    visitors, with the time it was read, so that a socket can ignore an older reading that
    arrives late. Seat states and the watcher count follow from it (``seat_presence``).
    One grouped count, however many watch."""
    return _presence(_sockets_at(game_id))


def _sockets_at(game_id: int) -> dict[int | None, int]:
    """The table's live sockets by person (None: the signed-out visitors)."""
    since = adapted_moment(timezone.now() - STALE_AFTER)
    with connection.cursor() as cursor:  # a statement written once: every page of a table
        cursor.execute(_sockets_statement(connection.vendor), [game_id, since])
        return dict(cursor.fetchall())


@cache
def _sockets_statement(vendor: str) -> str:
    person, key = column(Presence, "user"), column(Presence, "pk")
    return (
        f"SELECT {person}, COUNT({key}) FROM {table_name(Presence)}"
        f" WHERE {column(Presence, 'game')} = %s AND {column(Presence, 'seen_at')} >= %s"
        f" GROUP BY {person}"
    )


def _presence(sockets: dict[int | None, int]) -> dict:
    users = sorted(user_id for user_id in sockets if user_id is not None)
    return {"users": users, "anonymous": sockets.get(None, 0), "at": time.time()}


def presence_reading(game_id: int) -> dict:
    """The table's presence with what every viewer's page shows of it: each seat's state
    and the number watching (the same for every viewer, so one reading serves them all)."""
    presence = presence_of(game_id)
    seats = [
        {"is_bot": bool(bot), "user_id": user_id}
        for user_id, bot in Seat.objects.filter(game_id=game_id)
        .order_by("number")
        .values_list("user_id", "bot")
    ]
    states, watching = seat_presence(presence, seats)
    return {"presence": presence, "states": states, "watching": watching}


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
