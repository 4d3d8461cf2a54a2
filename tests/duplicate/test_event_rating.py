"""Duplicate events in the duplicate rating: once an event has finished, each deal and seat
is rated as a match among the people who held it (ranked by matchpoints, bots compared but
not rated), once however many runners ask, days and events oldest first by when they
closed."""

from datetime import UTC, date, datetime
from itertools import pairwise

import pytest

from duplicate import events
from duplicate.event_services import event_start
from duplicate.models import DuplicateDay, DuplicateEvent, DuplicateRating, DuplicateRatingEvent
from duplicate.rating import next_rate, rating_due
from games.signals import runner_idle
from lab.benchmarks.bursts import at_once

from .conftest import DAY
from .helpers import an_event, event_play_out, finished_result

pytestmark = pytest.mark.django_db


def finished_event(people, *, finished_at=None) -> DuplicateEvent:
    event = an_event(people)
    event_start(event.pk)
    event = event_play_out(event, lambda deal, table: ((3 - table, table, 1), 0))
    if finished_at is not None:
        DuplicateEvent.objects.filter(pk=event.pk).update(finished_at=finished_at)
    return DuplicateEvent.objects.get(pk=event.pk)


@pytest.fixture
def six(make_user):
    return [make_user(f"r{n}") for n in range(6)]


def test_a_finished_event_is_rated_deal_by_deal_and_seat_by_seat_among_its_people(make_user):
    people = [make_user(f"r{n}") for n in range(5)]  # and one bot
    event = an_event(people)
    event_start(event.pk)
    assert not rating_due()
    event = event_play_out(event, lambda deal, table: ((3 - table, table, 1), 0))
    assert rating_due()
    assert next_rate() == event and not rating_due()
    rated = list(DuplicateRatingEvent.objects.select_related("rating__user"))
    assert {(e.event_id, e.day_id) for e in rated} == {(event.pk, None)}
    # Two tables a deal: in each deal and seat two results; a match only where both are
    # people (the bot holds one seat a deal: that seat's person is compared but not rated).
    bot = event.entries.get(user=None).player
    expected = sum(1 for deal in range(3) for seat in range(3) if events.seat_of(bot, deal) != seat)
    assert len(rated) == 2 * expected
    assert {(e.number, e.seat, e.players) for e in rated} <= {
        (deal, seat, 2) for deal in (1, 2, 3) for seat in range(3)
    }
    for e in rated:  # one table beat the other in seats 0 and 1; seat 2 tied
        assert e.place == (2 if e.percent == 0.0 else 1)
        assert e.percent in ((0.0, 100.0) if e.seat != 2 else (50.0,))
    ratings = DuplicateRating.objects.all()
    alone = next(  # the person of the bot's line: compared with the bot alone, never rated
        e.user_id for e in event.entries.all() if e.user_id and e.player % 3 == bot % 3
    )
    assert {r.user_id for r in ratings} == {p.pk for p in people} - {alone}
    assert sum(r.results for r in ratings) == len(rated)
    assert next_rate() is None


def test_a_running_event_is_not_rated(six):
    event = an_event(six)
    event_start(event.pk)
    assert not rating_due() and next_rate() is None
    assert DuplicateEvent.objects.get(pk=event.pk).rated_at is None


def test_days_and_events_are_rated_oldest_first_by_when_they_closed(monkeypatch, six):
    """The day closes at midnight after DAY; one event finished before, one after."""
    before = finished_event(six, finished_at=datetime(2040, 3, 1, 12, tzinfo=UTC))
    after = finished_event(six, finished_at=datetime(2040, 3, 2, 12, tzinfo=UTC))
    finished_result(six[0], number=1, points=3, won=True, day=DAY)
    finished_result(six[1], number=1, points=1, won=False, day=DAY)
    monkeypatch.setattr("duplicate.days.today", lambda: date(2040, 3, 3))
    order = [next_rate(), next_rate(), next_rate()]
    assert order[0] == before and order[2] == after
    assert isinstance(order[1], DuplicateDay) and order[1].date == DAY
    assert next_rate() is None
    steps = list(DuplicateRatingEvent.objects.filter(rating__user=six[0]).order_by("pk"))
    for earlier, later in pairwise(steps):  # each from where the last left
        assert later.mu_before == pytest.approx(earlier.mu_after)


@pytest.mark.django_db(transaction=True)
def test_a_fifty_way_burst_of_the_rating_job_rates_an_event_and_a_day_once(six, close_the_day):
    event = finished_event(six)
    finished_result(six[0], number=1, points=3, won=True, day=DAY)
    finished_result(six[1], number=1, points=1, won=False, day=DAY)
    close_the_day()
    answers = at_once([lambda: runner_idle.send(sender=None) for _ in range(50)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert DuplicateRatingEvent.objects.filter(event=event).count() == 6 * 3  # three deals
    assert DuplicateRatingEvent.objects.filter(day__date=DAY).count() == 2
    results = {r.user_id: r.results for r in DuplicateRating.objects.all()}
    assert results == {p.pk: 4 if p in six[:2] else 3 for p in six}
    assert DuplicateEvent.objects.get(pk=event.pk).rated_at is not None
    assert DuplicateDay.objects.get(date=DAY).rated_at is not None


def test_the_day_page_says_how_much_the_last_event_moved_your_rating(client, six):
    event = finished_event(six)
    next_rate()
    client.force_login(six[0])
    html = client.get("/duplicate/").content.decode()
    mine = DuplicateRating.objects.get(user=six[0])
    assert f'data-my-rating="{mine.display}"' in html and f"in {event.name}." in html
