"""The end of a recompute: the rebuilt ratings take the place of the old in one transaction.

The rating lock, exclusive, keeps the ratings lanes out meanwhile: they find it taken and try
again later, and no table runner waits for it (runners only queue games: ``ratings.queue``).
Pages are not blocked either: until the swap commits they read the old rows.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from games.models import Game

from .models import PlayerRating, RatingEvent, RatingQueue, RatingsRecompute, RebuiltEvent
from .services import rating_lock_take
from .standings import standings_rebuild


@transaction.atomic
def rebuilt_swap(*, request: RatingsRecompute, ratings: dict) -> int:
    """Put the events rebuilt aside and ``ratings`` (every rating, moved in memory) in place
    of the old, rebuild the standings, and queue again the games rated meanwhile that the
    rebuild did not count; mark ``request`` done. Return the number of games rated."""
    rating_lock_take(exclusive=True)
    now = timezone.now()
    rebuilt = RebuiltEvent.objects.values("game_id")
    later = (
        Game.objects.filter(pk__in=RatingEvent.objects.values("game_id"))
        .exclude(pk__in=rebuilt)
        .values_list("pk", "finished_at")
    )
    RatingQueue.objects.bulk_create(
        [RatingQueue(game_id=pk, finished_at=finished_at) for pk, finished_at in later],
        ignore_conflicts=True,
    )
    RatingQueue.objects.filter(game_id__in=rebuilt).delete()
    RatingEvent.objects.all().delete()
    _events_move(now)
    _ratings_write([r for r in ratings.values() if r.pk], now)
    standings_rebuild()
    request.finished_at = now
    request.save(update_fields=["finished_at"])
    transaction.on_commit(rebuilt_clear)
    return request.games


def _events_move(created_at) -> None:
    """Copy the rebuilt events into the rating events, in their order (those of a game or a
    rating deleted meanwhile left out)."""
    quote = connection.ops.quote_name
    names = [f.column for f in RebuiltEvent._meta.concrete_fields if not f.primary_key]
    events, rebuilt = RatingEvent._meta.db_table, RebuiltEvent._meta.db_table
    games, ratings = Game._meta.db_table, PlayerRating._meta.db_table
    columns = ", ".join(quote(c) for c in names)  # the same columns in both tables
    picked = ", ".join(f"r.{quote(c)}" for c in names)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(events)} ({columns}, {quote('created_at')}) "
            f"SELECT {picked}, %s FROM {quote(rebuilt)} r "
            f"JOIN {quote(games)} g ON g.{quote('id')} = r.{quote('game_id')} "
            f"JOIN {quote(ratings)} p ON p.{quote('id')} = r.{quote('rating_id')} "
            f"ORDER BY r.{quote('id')}",
            [created_at],
        )


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
