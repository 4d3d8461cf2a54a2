"""The end of a recompute: the rebuilt ratings take the place of the old in one transaction.

The rating lock, exclusive, keeps the ratings lanes out meanwhile: they find it taken and try
again later, and no table runner waits for it (runners only queue games: ``ratings.queue``).
Pages are not blocked either: until the swap commits they read the old rows.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Game

from .locks import rating_lock_take
from .models import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    Leaderboard,
    PlayerRating,
    RatingEvent,
    RatingQueue,
    RatingsRecompute,
    RebuiltEvent,
)
from .standings import standings_rebuild

# The rebuilt rows' columns, which the rating events have too (and their events' attributes).
COLUMNS = tuple(f.column for f in RebuiltEvent._meta.concrete_fields if not f.primary_key)


@transaction.atomic
def rebuilt_swap(*, request: RatingsRecompute, ratings: dict, standings=None) -> int:
    """Put the events rebuilt aside, ``ratings`` (every rating, moved in memory) and the
    ``standings`` built with them (``StandingsBuilt``; None: rebuilt here from the events)
    in place of the old, and queue again the games rated meanwhile that the rebuild did not
    count; mark ``request`` done. Return the number of games rated."""
    rating_lock_take(exclusive=True)
    now = timezone.now()
    rebuilt = RebuiltEvent.objects.values("game_id")
    later = (  # NOT EXISTS: an anti-join (NOT IN over every rebuilt row took minutes)
        Game.objects.filter(pk__in=RatingEvent.objects.values("game_id"))
        .exclude(Exists(RebuiltEvent.objects.filter(game_id=OuterRef("pk"))))
        .values_list("pk", "finished_at")
    )
    RatingQueue.objects.bulk_create(
        [RatingQueue(game_id=pk, finished_at=finished_at) for pk, finished_at in later],
        ignore_conflicts=True,
    )
    RatingQueue.objects.filter(game_id__in=rebuilt).delete()
    _events_merge(now)
    _ratings_write([r for r in ratings.values() if r.pk], now)
    # a rating made after the rebuild began (a newcomer's first game, rated meanwhile) has
    # only games queued again above: it starts over
    PlayerRating.objects.exclude(updated_at=now).update(
        mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, games=0, wins=0, updated_at=now
    )
    if standings is None:
        standings_rebuild()
    else:
        standings.replace()
    # events updated in place keep their ids: the boards' ranks would not see they are behind
    Leaderboard.objects.update(ranked_at=None)
    request.finished_at = now
    request.save(update_fields=["finished_at"])
    transaction.on_commit(rebuilt_clear)
    return request.games


def _events_merge(created_at) -> None:
    """Make the rating events those rebuilt: on PostgreSQL, rows whose values changed are
    updated in place (their keys, game and seat, stay: no foreign key is checked again),
    events the rebuild has not are deleted, and new ones inserted in the order the games
    ended (those of a game or a rating deleted meanwhile left out); an unchanged event costs
    no write. Elsewhere: all deleted, all inserted."""
    quote = connection.ops.quote_name
    events, rebuilt = quote(RatingEvent._meta.db_table), quote(RebuiltEvent._meta.db_table)
    games, ratings = quote(Game._meta.db_table), quote(PlayerRating._meta.db_table)
    pk, game, seat = quote("id"), quote("game_id"), quote("seat")
    same = f"r.{game} = e.{game} AND r.{seat} = e.{seat}"
    values = [quote(c) for c in COLUMNS if c not in ("game_id", "seat")]
    statements = [
        f"UPDATE {events} e SET {', '.join(f'{c} = r.{c}' for c in values)} FROM {rebuilt} r "
        f"WHERE {same} AND ({', '.join(f'e.{c}' for c in values)}) "
        f"IS DISTINCT FROM ({', '.join(f'r.{c}' for c in values)})",
        f"DELETE FROM {events} e WHERE NOT EXISTS (SELECT 1 FROM {rebuilt} r WHERE {same})",
    ]
    if connection.vendor != "postgresql":
        statements = [f"DELETE FROM {events}"]
    columns = ", ".join(quote(c) for c in COLUMNS)
    statements.append(
        f"INSERT INTO {events} ({columns}, {quote('created_at')}) "
        f"SELECT {', '.join(f'r.{quote(c)}' for c in COLUMNS)}, %s FROM {rebuilt} r "
        f"WHERE NOT EXISTS (SELECT 1 FROM {events} e WHERE {same}) "
        f"AND EXISTS (SELECT 1 FROM {games} g WHERE g.{pk} = r.{game}) "
        f"AND EXISTS (SELECT 1 FROM {ratings} p WHERE p.{pk} = r.{quote('rating_id')}) "
        f"ORDER BY r.{pk}"
    )
    with connection.cursor() as cursor:
        for sql in statements[:-1]:
            cursor.execute(sql)
        cursor.execute(statements[-1], [created_at])


MOVED = ("mu", "sigma", "games", "wins")
CASTS = ("float8", "float8", "integer", "integer")


def _ratings_write(ratings: list[PlayerRating], now) -> None:
    """Save the ratings' ``MOVED`` fields: one ``UPDATE ... FROM (VALUES ...)`` a few
    thousand rows at a time on PostgreSQL (``bulk_update``'s ``CASE`` per row took a minute
    for 2,000 ratings on a busy machine)."""
    if connection.vendor != "postgresql":
        for rating in ratings:
            rating.updated_at = now
        PlayerRating.objects.bulk_update(ratings, [*MOVED, "updated_at"], batch_size=500)
        return
    quote = connection.ops.quote_name
    column = {name: quote(PlayerRating._meta.get_field(name).column) for name in MOVED}
    sets = ", ".join(f"{column[name]} = v.{quote(name)}" for name in MOVED)
    names = ", ".join(quote(name) for name in ("id", *MOVED))
    row = "(" + ", ".join(f"%s::{cast}" for cast in ("bigint", *CASTS)) + ")"
    updated = quote(PlayerRating._meta.get_field("updated_at").column)
    with connection.cursor() as cursor:
        for first in range(0, len(ratings), 5000):
            batch = ratings[first : first + 5000]
            cursor.execute(
                f"UPDATE {quote(PlayerRating._meta.db_table)} AS p SET {sets}, {updated} = %s "
                f"FROM (VALUES {', '.join([row] * len(batch))}) AS v ({names}) "
                f"WHERE p.{quote('id')} = v.{quote('id')}",
                [now, *(value for r in batch for value in (r.pk, r.mu, r.sigma, r.games, r.wins))],
            )


def rebuilt_clear() -> None:
    """Empty the table of rebuilt events (once they are in place, or for a new rebuild)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {connection.ops.quote_name(RebuiltEvent._meta.db_table)}")
    else:
        RebuiltEvent.objects.all().delete()
