"""The duplicate rating: each closed day and each finished event rated once, by matchpoints.

When a day has closed its results are final (a game still running at midnight does not
count), so the day is rated then, everyone compared on the whole day: each game of the day is
an OpenSkill (Plackett-Luce) match among the people who finished it, ranked by their places
on that game, the order the matchpoints use (ties as ties). An event is rated once it has
finished: each deal and seat is a match among the people who held that seat of that deal,
ranked by their places among everyone who held it (the bots filling the event are compared
but not rated). Days and events are rated oldest first, by when they closed; a day's games
in number order, an event's deals and seats in order. The game ratings (``ratings``) are
neither read nor moved.

Exactly once: the runners' spare time (``games.signals.runner_idle``) asks for the oldest
closed day or finished event not rated yet and locks its row; a second runner asking at the
same time waits on that row and finds it rated (or finds nothing and asks again a second
later). The row's ``rated_at`` is set in the same transaction as its rating events, and a
unique constraint (one event per day, game and person; per event, deal and person) stands
behind both.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from common.kept_rows import row_exists
from ratings.models import DEFAULT_MU, DEFAULT_SIGMA

from . import days
from .event_selectors import event_results
from .models import DuplicateDay, DuplicateEvent, DuplicateRating, DuplicateRatingEvent
from .selectors import day_results
from .standings import ScoredRow

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)

log = logging.getLogger(__name__)


def _days_due():
    return DuplicateDay.objects.filter(rated_at=None, date__lt=days.today())


def _events_due():
    return DuplicateEvent.objects.filter(rated_at=None, status=DuplicateEvent.Status.FINISHED)


def rating_due() -> bool:
    """Is a closed day or a finished event waiting to be rated? (Cheap: asked about once a
    second.)"""
    finished = DuplicateEvent.Status.FINISHED
    return _days_due().exists() or row_exists(DuplicateEvent, rated_at=None, status=finished)


def _oldest_due() -> DuplicateDay | DuplicateEvent | None:
    """The day or event that closed first among those waiting (a day closes at its end)."""
    waiting = []
    day = _days_due().order_by("date").first()
    if day is not None:
        waiting.append((days.day_end(day.date), 0, day))
    event = _events_due().order_by("finished_at", "pk").first()
    if event is not None:
        waiting.append((event.finished_at, 1, event))
    return min(waiting, key=lambda item: item[:2])[2] if waiting else None


@transaction.atomic
def next_rate() -> DuplicateDay | DuplicateEvent | None:
    """Rate the oldest closed day or finished event not rated yet; return it (None: nothing
    to rate, or another runner rated it while this one waited for its row)."""
    oldest = _oldest_due()
    if isinstance(oldest, DuplicateDay):
        day = _days_due().select_for_update().filter(pk=oldest.pk).first()
        if day is not None:
            for results in day_results(day.date):
                _match_rate(results.rows, day=day, number=results.number, last_day=day.date)
        return _rated(day)
    if isinstance(oldest, DuplicateEvent):
        event = _events_due().select_for_update().filter(pk=oldest.pk).first()
        if event is not None:
            for group in event_results(event):
                _match_rate(group.rows, event=event, number=group.deal, seat=group.seat)
        return _rated(event)
    return None


def _rated(occasion: DuplicateDay | DuplicateEvent | None):
    if occasion is not None:
        occasion.rated_at = timezone.now()
        occasion.save(update_fields=["rated_at"])
    return occasion


def _match_rate(
    rows: list[ScoredRow], *, number: int, last_day=None, **occasion
) -> list[DuplicateRatingEvent]:
    """Rate one match: the people among ``rows`` (everyone who finished holding the same
    cards, scored), ranked by their places. Nothing with fewer than two people: a result
    nobody can be compared with says nothing of skill. ``occasion`` is the day, or the event
    and the seat."""
    people = [row for row in rows if row.user_id is not None]
    if len(people) < 2:
        return []
    ratings = _ratings_locked([row.user_id for row in people])
    teams = MODEL.rate(
        [
            [MODEL.rating(mu=ratings[row.user_id].mu, sigma=ratings[row.user_id].sigma)]
            for row in people
        ],
        ranks=[row.place for row in people],
    )
    events = []
    for row, team in zip(people, teams, strict=True):
        rating = ratings[row.user_id]
        events.append(
            DuplicateRatingEvent(
                number=number,
                rating=rating,
                place=row.place,
                players=len(rows),
                percent=row.percent,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu_after=team[0].mu,
                sigma_after=team[0].sigma,
                **occasion,
            )
        )
        rating.mu, rating.sigma = team[0].mu, team[0].sigma
        rating.ordinal = rating.mu - 3 * rating.sigma
        rating.results += 1
        if last_day is not None:
            rating.last_day = last_day
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
    """Rate the closed days and finished events waiting, oldest first (at most ``limit`` a
    call); return how many."""
    rated = 0
    while rated < limit and rating_due():
        if next_rate() is None:
            break
        rated += 1
    return rated
