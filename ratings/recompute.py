"""Rebuild every rating and standing from the match history (the admin's "Recompute").

The history is read in the order the games ended, a chunk of games at a time; every game is
rated in memory by the rule ``game_rate`` follows (``rated_events``, ``ratings_moved``), and
each chunk's events are written aside (``RebuiltEvent``) in a transaction that also moves the
request's cursor (``RatingsRecompute``): a rebuild whose process died resumes after its last
chunk, the ratings in memory replayed from the events written aside.

Pages go on reading the old ratings meanwhile, and the ratings lanes go on rating games that
end (``ratings.queue``): no lock is held while chunks are rated. At the end, one transaction
(``ratings.swap``) takes the rating lock, puts the rebuilt events and ratings in place of the
old and rebuilds the standings: pages see the old ratings or the new, never half of each (a
reader is not blocked by it: PostgreSQL shows it the last committed rows). Games that ended
after the rebuild began and were rated meanwhile are queued again, and the lanes rate them
after the swap, from the rebuilt ratings, in the order they ended.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from operator import attrgetter

from django.db import connection, transaction
from django.dispatch import Signal
from django.utils import timezone

from common.bulk_rows import tuples_insert
from games.models import Game, Seat

from .models import DEFAULT_MU, DEFAULT_SIGMA, PlayerRating, RatingsRecompute, RebuiltEvent
from .services import RATED_STATUSES, rated_events, ratings_moved
from .standings import StandingsBuilt, kept_boards
from .swap import COLUMNS, rebuilt_clear, rebuilt_swap

CHUNK = 5_000  # games rated and committed at once

# Sent, with ``request``, each time a chunk of a rebuild has committed (tests hold a rebuild
# there; the admin reads the progress from the request).
chunk_committed = Signal()
@dataclass(frozen=True)
class EndedGame:
    """What rating one game needs."""

    game_id: int
    players: tuple[tuple[int | None, str], ...]  # (user id, bot name) by seat
    scores: tuple[int, ...]
    winner: int | None
    leavers: frozenset[int]  # seats a person left (a stand-in played), or that abandoned
    finished_at: datetime | None = None  # what the leaderboards ask of it
    target: int = 0


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


def games_in_order(cutoff) -> list[tuple]:
    """``(finished_at, game id)`` of every game a rating counts that ended by ``cutoff``, in
    the order they ended (as ``game_rate`` saw them)."""
    return list(
        Game.objects.filter(
            status__in=RATED_STATUSES,
            started_at__isnull=False,
            is_rated=True,
            finished_at__lte=cutoff,
        )
        .order_by("finished_at", "pk")
        .values_list("finished_at", "pk")
        .iterator(chunk_size=20_000)
    )


def ended_games(ids: list[int]) -> Iterator[EndedGame]:
    """The games ``ids`` as rating needs them, in that order: one read of their seats."""
    seats = (
        Seat.objects.filter(game_id__in=ids)
        .order_by("game_id", "number")
        .values_list(
            "game_id",
            "user_id",
            "bot",
            "score",
            "stand_in",
            "game__winner_seat",
            "game__abandoned_by",
            "game__finished_at",
            "game__target",
        )
    )
    by_game: dict[int, list] = {}
    for row in seats:
        by_game.setdefault(row[0], []).append(row)
    for game_id in ids:
        yield from _ended(by_game.get(game_id, []))


def _ended(rows: list[tuple]) -> Iterator[EndedGame]:
    if len(rows) != 3 or any(user is None and not bot for _g, user, bot, *_ in rows):
        return  # a seat nobody took: never rated
    game_id, *_, winner, abandoned_by, finished_at, target = rows[0]
    leavers = {number for number, row in enumerate(rows) if row[4]}
    if abandoned_by is not None:
        leavers.add(abandoned_by)
    yield EndedGame(
        game_id=game_id,
        players=tuple((user, bot) for _g, user, bot, *_ in rows),
        scores=tuple(row[3] for row in rows),
        winner=winner,
        leavers=frozenset(leavers),
        finished_at=finished_at,
        target=target,
    )


def _fresh(rating: PlayerRating) -> PlayerRating:
    """``rating`` as it stands before any game (in memory)."""
    rating.mu, rating.sigma, rating.games, rating.wins = DEFAULT_MU, DEFAULT_SIGMA, 0, 0
    return rating


def ratings_replayed() -> dict:
    """Every rating (by ``rating_key``), moved in memory by the events rebuilt so far: where
    a rebuild stands after its last committed chunk. Those with no game start over."""
    ratings = {
        rating_key(r.user_id, r.bot): _fresh(r)
        for r in PlayerRating.objects.only("pk", "user_id", "bot").iterator(chunk_size=5000)
    }
    by_id = {rating.pk: rating for rating in ratings.values()}
    last: dict[int, tuple] = {}  # rating id -> (game id, [mu after], [sigma after])
    rows = RebuiltEvent.objects.order_by("pk").values_list(
        "rating_id", "game_id", "won", "mu_after", "sigma_after"
    )
    for rating_id, game_id, won, mu, sigma in rows.iterator(chunk_size=20_000):
        rating = by_id.get(rating_id)
        if rating is None:
            continue  # deleted since (its person's account): its events go with it
        rating.games += 1
        rating.wins += won
        seen = last.get(rating_id)
        if seen is None or seen[0] != game_id:
            last[rating_id] = seen = (game_id, [], [])
        seen[1].append(mu)
        seen[2].append(sigma)
    for rating_id, (_game, mus, sigmas) in last.items():  # two seats: the mean of both
        by_id[rating_id].mu = sum(mus) / len(mus)
        by_id[rating_id].sigma = sum(sigmas) / len(sigmas)
    return ratings


def ratings_recompute(*, request: RatingsRecompute | None = None) -> int:
    """Rebuild every rating, rating event and standing from the match history, in the order
    games ended, in chunks that commit as they go; resume ``request``'s rebuild if it began.
    Return the number of games rated. (Without a request, one is made.)"""
    if request is None:
        request = RatingsRecompute.objects.create()
    if request.started_at is None:
        _begin(request)
    order = games_in_order(request.cutoff)
    if request.games_total is None:
        request.games_total = len(order)
        request.save(update_fields=["games_total"])
    start = 0
    if request.after_game is not None:
        start = bisect_right(order, (request.after_finished_at, request.after_game))
    ratings = ratings_replayed()
    # the standings are built with the chunks; a resumed rebuild rebuilds them at its swap
    standings = StandingsBuilt(kept_boards()) if start == 0 else None
    for first in range(start, len(order), CHUNK):
        _chunk_rate(request, order[first : first + CHUNK], ratings, standings)
        chunk_committed.send(sender=None, request=request)
    return rebuilt_swap(request=request, ratings=ratings, standings=standings)


RECOMPUTE_LOCK = 0x436F696D  # held by the one process rebuilding, for the whole rebuild


@contextmanager
def recompute_slot() -> Iterator[bool]:
    """Whether this process may rebuild the ratings now (none other does), held until the
    block ends: a session lock, kept across the chunks' commits and let go if the process
    dies. SQLite: one process, always."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [RECOMPUTE_LOCK])
        ours = cursor.fetchone()[0]
    try:
        yield ours
    finally:
        if ours:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [RECOMPUTE_LOCK])


def _begin(request: RatingsRecompute) -> None:
    """Start ``request``'s rebuild afresh: nothing aside yet, cutoff now."""
    rebuilt_clear()
    request.started_at = request.cutoff = timezone.now()
    request.after_finished_at = request.after_game = request.progress_at = None
    request.games_done, request.games_total, request.games = 0, None, 0
    request.save()


def _chunk_rate(request: RatingsRecompute, chunk: list[tuple], ratings: dict, standings) -> None:
    """Rate the games of ``chunk`` (``(finished_at, id)``, in order) from ``ratings`` (moved
    in memory) and count them on ``standings`` (if built), write their events aside and move
    the request on, in one transaction."""
    games = list(ended_games([pk for _finished, pk in chunk]))
    missing = {rating_key(*p) for game in games for p in game.players} - ratings.keys()
    if missing:
        ratings.update({key: _fresh(r) for key, r in ratings_fetch(missing).items()})
    row = attrgetter(*COLUMNS)  # a rating event's values, as the rebuilt row holds them
    rows = []
    rated = ratings_in_order(games, ratings, created_at=None)
    for game, events in zip(games, rated, strict=True):
        rows += map(row, events)
        if standings is not None:
            standings.add(
                events=[
                    (e.rating_id, e.rating.user_id, e.rating.bot, e.won, e.mu_after, e.sigma_after)
                    for e in events
                ],
                finished_at=game.finished_at,
                target=game.target,
                has_bot=any(bot for _user, bot in game.players),
            )
    with transaction.atomic():
        tuples_insert(RebuiltEvent, COLUMNS, rows)
        request.after_finished_at, request.after_game = chunk[-1]
        request.games_done += len(chunk)
        request.games += len(games)
        request.progress_at = timezone.now()
        request.save(
            update_fields=["after_finished_at", "after_game", "games_done", "games", "progress_at"]
        )


__all__ = ["EndedGame", "ended_games", "rating_key", "ratings_in_order", "ratings_recompute"]
