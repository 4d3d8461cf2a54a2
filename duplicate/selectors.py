"""Reading a day of the duplicate: each game's results, matchpoints and spread, the day's table."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.conf import settings
from django.db.models import OuterRef, Q, Subquery

from games.models import Game, Seat
from ratings.models import display_rating

from . import days
from .models import DuplicateEntry, DuplicateExclusion, DuplicateRating
from .standings import ScoredRow, Standing, rows_score, standings_build

SEAT = 0  # the person's seat in every duplicate game


@dataclass(kw_only=True)
class Row(ScoredRow):
    """One finished result of one game of the day (``key`` is the person's id)."""

    is_open: bool = False  # the replay is open to all (among the best, and the day closed)


@dataclass
class GameResults:
    number: int
    rows: list[Row] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.rows)

    @property
    def winners(self) -> int:
        return sum(row.won for row in self.rows)


def _entries(day: date):
    score = Seat.objects.filter(game=OuterRef("game_id"), number=SEAT).values("score")[:1]
    return (
        DuplicateEntry.objects.filter(day__date=day)
        .select_related("user", "game")
        .annotate(points=Subquery(score))
    )


def _finished(entry, end) -> bool:
    game = entry.game
    return (
        game.status == Game.Status.FINISHED
        and game.finished_at is not None
        and game.finished_at < end
    )


def day_results(day: date) -> list[GameResults]:
    """Every game of ``day`` with its finished results, best first. A game still running at
    the close, or abandoned, has no result."""
    end, closed = days.day_end(day), days.is_closed(day)
    games = {number: GameResults(number) for number in days.numbers()}
    for entry in _entries(day).order_by("number", "game__finished_at", "pk"):
        if entry.number in games and _finished(entry, end):
            games[entry.number].rows.append(
                Row(
                    key=entry.user_id,
                    player=entry.user.username,
                    user_id=entry.user_id,
                    game_id=entry.game_id,
                    points=entry.points or 0,
                    won=entry.game.winner_seat == SEAT,
                )
            )
    for results in games.values():
        for row in rows_score(results.rows):
            row.is_open = closed and row.place <= settings.COINS_DUPLICATE_OPEN_BEST
    return list(games.values())


def standings(games: list[GameResults], *, excluded=()) -> list[Standing]:
    """The day's table: each person's average percentage over the games they finished,
    best first (more games finished breaks a tie, then the name), without the people in
    ``excluded`` (ids)."""
    return standings_build((results.rows for results in games), excluded=excluded)


def excluded_from(*, day: date | None = None, event_id: int | None = None) -> set[int]:
    """The ids of the people staff kept off a day's standings, an event's, or (neither
    given) the duplicate rating's board."""
    if day is not None:
        where = {"day__date": day}
    elif event_id is not None:
        where = {"event_id": event_id}
    else:
        where = {"day": None, "event": None}
    return set(DuplicateExclusion.objects.filter(**where).values_list("user_id", flat=True))


def entries_of(user, day: date) -> dict[int, DuplicateEntry]:
    """The person's games of ``day`` by number."""
    if not user.is_authenticated:
        return {}
    rows = DuplicateEntry.objects.filter(day__date=day, user=user).select_related("game")
    return {entry.number: entry for entry in rows}


def policy_of_game(game: Game) -> dict:
    """How a duplicate game is kept (``games.signals.table_policy``): only its player sees it
    (no invite opens it) and gives no hints; once its day has closed, a best result is open to
    all. Not a duplicate game: nothing to say."""
    entry = DuplicateEntry.objects.filter(game_id=game.pk).select_related("day").first()
    if entry is None:
        return {}
    policy = {"sealed": True, "no_hints": True}
    day = entry.day.date
    if days.is_closed(day) and game.status == Game.Status.FINISHED:
        for results in day_results(day):
            if results.number == entry.number:
                policy["open"] = any(r.is_open and r.game_id == game.pk for r in results.rows)
    return policy


def _listed_ratings():
    return DuplicateRating.objects.exclude(user_id__in=excluded_from())


def rating_board():
    """Everyone with a duplicate rating, best first (the conservative mu - 3 sigma), but the
    people staff kept off the board."""
    return _listed_ratings().select_related("user").order_by("-ordinal", "user_id")


def rating_of(user) -> dict | None:
    """The person's duplicate rating, their place on the board and how much the last day or
    event rated for them moved it (None before their first rated game)."""
    if not user.is_authenticated:
        return None
    rating = DuplicateRating.objects.filter(user=user).first()
    if rating is None:
        return None
    ahead = _listed_ratings().filter(
        Q(ordinal__gt=rating.ordinal) | Q(ordinal=rating.ordinal, user_id__lt=rating.user_id)
    ).count()
    last = rating.events.select_related("day", "event").order_by("-pk").first()
    change = 0
    if last is not None:
        first = rating.events.filter(day=last.day, event=last.event).order_by("pk").first()
        change = rating.display - display_rating(first.mu_before, first.sigma_before)
    return {
        "rating": rating,
        "rank": ahead + 1,
        "change": change,
        "last_day": last.day.date if last is not None and last.day else None,
        "last_event": last.event if last is not None else None,
    }
