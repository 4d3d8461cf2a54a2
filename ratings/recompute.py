"""Rebuild every rating and standing from the match history (the admin's "Recompute").

With years of games, rating them one by one through ``game_rate`` took minutes of queries in
one transaction, while the table runner that served the request waited. Here the history is
read in one ordered pass, every game is rated in memory by the same rule (``rated_events``,
``ratings_moved``) in the order the games ended, and the results are written in bulk. The
exclusive rating lock keeps games from being rated meanwhile: one that ends during the
rebuild is rated right after it, from the rebuilt ratings.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from common.bulk_rows import rows_insert
from games.models import Seat

from .models import DEFAULT_MU, DEFAULT_SIGMA, PlayerRating, RatingEvent
from .services import RATED_STATUSES, rated_events, rating_lock_take, ratings_moved
from .standings import standings_rebuild

BATCH = 20_000  # events written at once


@dataclass(frozen=True)
class EndedGame:
    """What rating one game needs."""

    game_id: int
    players: tuple[tuple[int | None, str], ...]  # (user id, bot name) by seat
    scores: tuple[int, ...]
    winner: int | None
    leavers: frozenset[int]  # seats a person left (a stand-in played), or that abandoned


def rating_key(user_id: int | None, bot: str) -> tuple[int | None, str]:
    """Which rating a seat plays under: the bot level's, else the person's."""
    return (None, bot) if bot else (user_id, "")


def ratings_in_order(games: Iterable[EndedGame], ratings: dict, created_at) -> Iterator[list]:
    """Rate ``games`` one after another, as ``game_rate`` would in that order, moving
    ``ratings`` (by ``rating_key``, each rating made beforehand) in memory; yield each
    game's events (not saved)."""
    for game in games:
        rows = [ratings[rating_key(user, bot)] for user, bot in game.players]
        events = rated_events(
            game_id=game.game_id,
            ratings=rows,
            scores=list(game.scores),
            winner=game.winner,
            leavers=set(game.leavers),
            created_at=created_at,
        )
        ratings_moved(events)
        yield events


def ratings_fetch(keys: set) -> dict:
    """The rating rows of ``keys`` (``rating_key``s), made where missing."""
    bots = {bot for _user, bot in keys if bot}
    users = {user for user, bot in keys if not bot}
    for bot in bots:
        PlayerRating.objects.get_or_create(bot=bot)
    have = set(PlayerRating.objects.filter(user_id__in=users).values_list("user_id", flat=True))
    PlayerRating.objects.bulk_create(
        [PlayerRating(user_id=user) for user in users - have], batch_size=2000
    )
    rows = PlayerRating.objects.filter(user_id__in=users) | PlayerRating.objects.filter(
        bot__in=bots
    )
    return {rating_key(r.user_id, r.bot): r for r in rows}


def ended_games() -> Iterator[EndedGame]:
    """Every game a rating counts, in the order they ended (as ``game_rate`` saw them):
    one ordered read of their seats."""
    seats = (
        Seat.objects.filter(
            game__status__in=RATED_STATUSES,
            game__started_at__isnull=False,
            game__is_rated=True,
        )
        .order_by("game__finished_at", "game_id", "number")
        .values_list(
            "game_id",
            "user_id",
            "bot",
            "score",
            "stand_in",
            "game__winner_seat",
            "game__abandoned_by",
        )
    )
    game_id, rows = None, []
    for row in seats.iterator(chunk_size=BATCH):
        if row[0] != game_id and rows:
            yield from _ended(rows)
            rows = []
        game_id = row[0]
        rows.append(row)
    yield from _ended(rows)


def _ended(rows: list[tuple]) -> Iterator[EndedGame]:
    if len(rows) != 3 or any(user is None and not bot for _g, user, bot, *_ in rows):
        return  # a seat nobody took: never rated
    game_id, *_, winner, abandoned_by = rows[0]
    leavers = {number for number, row in enumerate(rows) if row[4]}
    if abandoned_by is not None:
        leavers.add(abandoned_by)
    yield EndedGame(
        game_id=game_id,
        players=tuple((user, bot) for _g, user, bot, *_ in rows),
        scores=tuple(row[3] for row in rows),
        winner=winner,
        leavers=frozenset(leavers),
    )


@transaction.atomic
def ratings_recompute() -> int:
    """Rebuild every rating, rating event and standing from the match history, in the order
    games ended; idempotent. Return the number of games rated."""
    rating_lock_take(exclusive=True)
    games = list(ended_games())
    ratings = ratings_fetch({rating_key(*player) for game in games for player in game.players})
    for rating in PlayerRating.objects.all():  # those with no rated game left start over too
        ratings.setdefault(rating_key(rating.user_id, rating.bot), rating)
    now = timezone.now()
    for rating in ratings.values():
        rating.mu, rating.sigma, rating.games, rating.wins = DEFAULT_MU, DEFAULT_SIGMA, 0, 0
        rating.updated_at = now
    RatingEvent.objects.all().delete()
    batch: list[RatingEvent] = []
    for events in ratings_in_order(games, ratings, created_at=now):
        batch += events
        if len(batch) >= BATCH:
            _events_insert(batch)
            batch = []
    _events_insert(batch)
    PlayerRating.objects.bulk_update(
        list(ratings.values()), ["mu", "sigma", "games", "wins", "updated_at"], batch_size=2000
    )
    standings_rebuild()
    return len(games)


def _events_insert(events: list[RatingEvent]) -> None:
    for event in events:
        event.rating_id = event.rating.pk
    rows_insert(RatingEvent, events, with_pk=False)


__all__ = ["EndedGame", "ended_games", "rating_key", "ratings_in_order", "ratings_recompute"]
