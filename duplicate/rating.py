"""The duplicate rating: each closed day rated once, game by game, by matchpoints.

When a day has closed its results are final (a game still running at midnight does not
count), so the day is rated then, everyone compared on the whole day: each game of the day is
an OpenSkill (Plackett-Luce) match among the people who finished it, ranked by their places
on that game, the order the matchpoints use (ties as ties). Games are rated in number order,
days in date order. The game ratings (``ratings``) are neither read nor moved.

Exactly once: the runners' spare time (``games.signals.runner_idle``) asks for the oldest
closed day not rated yet and locks its row; a second runner asking at the same time waits on
that row and finds it rated (or finds nothing and asks again a second later). The day's
``rated_at`` is set in the same transaction as its rating events, and a unique constraint
(one event per day, game and person) stands behind both.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from ratings.models import DEFAULT_MU, DEFAULT_SIGMA

from . import days
from .models import DuplicateDay, DuplicateRating, DuplicateRatingEvent
from .selectors import GameResults, day_results

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)

log = logging.getLogger(__name__)


def rating_due() -> bool:
    """Is a closed day waiting to be rated? (One cheap query, asked about once a second.)"""
    return DuplicateDay.objects.filter(rated_at=None, date__lt=days.today()).exists()


@transaction.atomic
def next_day_rate() -> DuplicateDay | None:
    """Rate the oldest closed day not rated yet; return it (None: nothing to rate, or another
    runner rated it while this one waited for its row)."""
    day = (
        DuplicateDay.objects.select_for_update()
        .filter(rated_at=None, date__lt=days.today())
        .order_by("date")
        .first()
    )
    if day is None:
        return None
    for results in day_results(day.date):
        _game_rate(day, results)
    day.rated_at = timezone.now()
    day.save(update_fields=["rated_at"])
    return day


def _game_rate(day: DuplicateDay, results: GameResults) -> list[DuplicateRatingEvent]:
    """Rate one game of ``day`` among those who finished it (nothing with fewer than two:
    a result nobody can be compared with says nothing of skill)."""
    rows = results.rows
    if len(rows) < 2:
        return []
    ratings = _ratings_locked([row.user_id for row in rows])
    places = [row.place for row in rows]
    teams = MODEL.rate(
        [
            [MODEL.rating(mu=ratings[row.user_id].mu, sigma=ratings[row.user_id].sigma)]
            for row in rows
        ],
        ranks=places,
    )
    events = []
    for row, team in zip(rows, teams, strict=True):
        rating = ratings[row.user_id]
        events.append(
            DuplicateRatingEvent(
                day=day,
                number=results.number,
                rating=rating,
                place=row.place,
                players=len(rows),
                percent=row.percent,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu_after=team[0].mu,
                sigma_after=team[0].sigma,
            )
        )
        rating.mu, rating.sigma = team[0].mu, team[0].sigma
        rating.ordinal = rating.mu - 3 * rating.sigma
        rating.results += 1
        rating.last_day = day.date
    DuplicateRatingEvent.objects.bulk_create(events)
    DuplicateRating.objects.bulk_update(
        list(ratings.values()), ["mu", "sigma", "ordinal", "results", "last_day"]
    )
    return events


def _ratings_locked(user_ids: list[int]) -> dict[int, DuplicateRating]:
    """The people's duplicate ratings (made at the default when new), locked in id order."""
    DuplicateRating.objects.bulk_create(
        [DuplicateRating(user_id=user_id) for user_id in user_ids], ignore_conflicts=True
    )
    rows = DuplicateRating.objects.select_for_update().filter(user_id__in=user_ids)
    return {rating.user_id: rating for rating in rows.order_by("pk")}


def rating_catch_up(*, limit: int = 7) -> int:
    """Rate the closed days waiting, oldest first (at most ``limit`` a call); return how many."""
    rated = 0
    while rated < limit and rating_due():
        if next_day_rate() is None:
            break
        rated += 1
    return rated
