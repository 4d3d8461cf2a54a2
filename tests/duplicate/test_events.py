"""Duplicate events between people (the schedule is test_schedule.py's): starting an event
(bots fill to a multiple of three, every table of a deal dealt from the deal's seed, sealed,
on the event's clock), the next deal once the last one's tables have all ended (once, however
many runners ask) until the event's deals are played, and scoring by matchpoints against
everyone who held the same seat of the same deal."""

from collections import Counter
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from duplicate import events
from duplicate.event_selectors import event_results, event_standings
from duplicate.event_services import (
    event_advance,
    event_join,
    event_leave,
    event_seed,
    event_start,
    events_advance,
)
from duplicate.models import DuplicateEvent, EventEntry, EventTable
from games.models import Game, Seat
from games.signals import runner_idle
from games.table import flow
from games.table.errors import GameError
from games.table.invites import policy_of
from games.table.loading import game_load
from lab.benchmarks.bursts import at_once
from tests.games.helpers import serve_due

from .helpers import an_event, event_play_out, finish, tables_of


@pytest.fixture
def people(make_user):
    return [make_user(f"p{n}") for n in range(4)]


@pytest.mark.django_db
def test_starting_fills_with_bots_and_deals_every_table_of_deal_1_from_its_seed(people):
    event = an_event(people)
    event_start(event.pk)
    event.refresh_from_db()
    assert (event.status, event.round) == (DuplicateEvent.Status.RUNNING, 1)
    entries = {entry.player: entry for entry in event.entries.all()}
    assert sorted(entries) == list(range(6))
    assert sum(entry.user_id is None for entry in entries.values()) == 2
    assert {entry.user_id for entry in entries.values()} - {None} == {p.pk for p in people}
    tables = tables_of(event, 1)
    plan = events.schedule(6)[0]
    assert len(tables) == 2
    for table in tables:
        game = table.game
        assert game.seed == event_seed(event, 1)
        assert (game.status, game.is_public, game.is_rated) == ("in_progress", False, False)
        assert game.target == 3
        for seat in game.seats.all():
            entry = entries[plan[table.number].seats[seat.number]]
            assert seat.user_id == entry.user_id
            assert bool(seat.bot) == (entry.user_id is None)
        assert policy_of(game) == {"sealed": True, "no_hints": True}
    assert event_seed(event, 2) not in (event_seed(event, 1), event_seed(event, 3))


@pytest.mark.django_db
def test_starting_twice_starts_once_and_an_empty_event_does_not_start(people):
    event = an_event(people)
    event_start(event.pk)
    event_start(event.pk)
    assert EventTable.objects.count() == 2 and EventEntry.objects.count() == 6
    with pytest.raises(GameError):
        event_join(user=people[0].__class__.objects.create(username="late"), event_id=event.pk)
    empty = an_event([])
    with pytest.raises(GameError):
        event_start(empty.pk)
    assert DuplicateEvent.objects.get(pk=empty.pk).status == DuplicateEvent.Status.OPEN


@pytest.mark.django_db
def test_joining_twice_is_once_and_leaving_is_before_the_start(people):
    event = an_event(people[:2])
    event_join(user=people[0], event_id=event.pk)
    event_leave(user=people[1], event_id=event.pk)
    assert [e.user for e in event.entries.all()] == [people[0]]
    event_start(event.pk)
    with pytest.raises(GameError):
        event_leave(user=people[0], event_id=event.pk)


@pytest.mark.django_db
def test_the_next_deal_starts_when_every_table_has_ended_and_the_event_then_finishes(people):
    event = an_event(people)
    event_start(event.pk)
    first, second = tables_of(event, 1)
    finish(first.game, (3, 1, 0), winner=0)
    assert events_advance() == 0 and not tables_of(event, 2)
    finish(second.game, (0, 0, 0), winner=None)  # abandoned: ended too
    runner_idle.send(sender=None)
    runner_idle.send(sender=None)
    tables = tables_of(event, 2)
    assert len(tables) == 2 and {t.game.seed for t in tables} == {event_seed(event, 2)}
    for deal in (2, 3):
        for table in tables_of(event, deal):
            finish(table.game, (1, 3, 2), winner=1)
        event_advance(event.pk)
    event.refresh_from_db()
    assert event.status == DuplicateEvent.Status.FINISHED and event.finished_at is not None
    assert EventTable.objects.filter(event=event).count() == 6
    event_advance(event.pk)
    assert EventTable.objects.filter(event=event).count() == 6


@pytest.mark.django_db(transaction=True)
def test_twenty_runners_at_once_start_the_next_deal_once(people):
    event = an_event(people)
    event_start(event.pk)
    for table in tables_of(event, 1):
        finish(table.game, (3, 0, 0), winner=0)
    answers = at_once([lambda: event_advance(event.pk) for _ in range(20)])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    assert len(tables_of(event, 2)) == 2
    assert DuplicateEvent.objects.get(pk=event.pk).round == 2


@pytest.mark.django_db
def test_results_are_compared_with_everyone_who_held_the_same_seat_of_the_same_deal(make_user):
    people = [make_user(f"q{n}") for n in range(9)]
    event = an_event(people)
    event_start(event.pk)
    tables = tables_of(event, 1)
    # Seat 0 took 3 (won), 2 and 1 at the three tables; seat 1 always 0; seat 2 took 2, 2, 1.
    finish(tables[0].game, (3, 0, 2), winner=0)
    finish(tables[1].game, (2, 0, 2), winner=None)
    Game.objects.filter(pk=tables[1].game.pk).update(status=Game.Status.FINISHED)
    finish(tables[2].game, (1, 0, 1), winner=None)
    Game.objects.filter(pk=tables[2].game.pk).update(status=Game.Status.FINISHED)
    results = {(group.deal, group.seat): group for group in event_results(event)}
    assert sorted(results) == [(1, 0), (1, 1), (1, 2)]
    plan = events.schedule(9)[0]
    names = {e.player: e.user.username for e in event.entries.select_related("user")}

    def percent_of(seat, table):
        row = next(r for r in results[(1, seat)].rows if r.table == table)
        assert row.player == names[plan[table].seats[seat]]
        return row.percent

    assert [percent_of(0, t) for t in range(3)] == [100.0, 50.0, 0.0]
    assert [percent_of(1, t) for t in range(3)] == [50.0, 50.0, 50.0]
    assert [percent_of(2, t) for t in range(3)] == [75.0, 75.0, 0.0]
    standings = {s.player: s for s in event_standings(list(results.values()))}
    winner = names[plan[0].seats[0]]
    assert standings[winner].place == 1 and standings[winner].percent == 100.0
    assert all(s.results == 1 for s in standings.values()) and len(standings) == 9


@pytest.mark.django_db
def test_the_event_page_joins_shows_your_table_and_the_standings(client, people):
    event = an_event(people[1:])
    client.force_login(people[0])
    assert f'data-event-link="{event.pk}"' in client.get("/duplicate/").content.decode()
    page = client.get(f"/duplicate/events/{event.pk}/").content.decode()
    assert 'data-action="event-join"' in page
    client.post(f"/duplicate/events/{event.pk}/join/", {"action": "join"})
    assert EventEntry.objects.filter(event=event, user=people[0]).exists()
    event_start(event.pk)
    mine = EventTable.objects.get(event=event, deal=1, game__seats__user=people[0]).game
    page = client.get(f"/duplicate/events/{event.pk}/").content.decode()
    assert f'href="/games/{mine.pk}/"' in page and 'data-round="1"' in page
    for table in tables_of(event, 1):
        finish(table.game, (3, 1, 0), winner=0)
    document = client.get(f"/duplicate/events/{event.pk}.json").json()
    assert document["round"] == 1 and len(document["standings"]) == 6
    assert [(d["deal"], d["seat"], len(d["results"])) for d in document["deals"]] == [
        (1, 0, 2),
        (1, 1, 2),
        (1, 2, 2),
    ]
    assert "deck" not in str(document) and "hand" not in str(document)


@pytest.mark.django_db
def test_an_event_table_is_sealed_to_everyone_not_seated_there(client, make_user, people):
    event = an_event(people)
    event_start(event.pk)
    game = tables_of(event, 1)[0].game
    seated = {seat.user_id for seat in game.seats.all()}
    outsider = next(p for p in people if p.pk not in seated)
    for viewer in (None, outsider, make_user("stranger")):
        client.logout() if viewer is None else client.force_login(viewer)
        for path in (f"/games/{game.pk}/", f"/games/{game.pk}/?invite={game.invite_token}"):
            assert client.get(path).status_code in (403, 404), (path, viewer)


@pytest.mark.django_db
def test_staff_start_an_event_from_the_admin(admin_client, people):
    event = an_event(people[:1])
    response = admin_client.post(
        "/admin/duplicate/duplicateevent/",
        {"action": "start", "_selected_action": [event.pk]},
        follow=True,
    )
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.status == DuplicateEvent.Status.RUNNING
    assert EventEntry.objects.filter(event=event, user=None).count() == 2
    table = EventTable.objects.get(event=event)
    assert [s.user_id for s in table.game.seats.order_by("number")].count(None) == 2
    assert (
        admin_client.get(f"/admin/duplicate/duplicateevent/{event.pk}/change/").status_code == 200
    )


@pytest.mark.django_db
def test_an_event_of_six_deals_plays_six_rounds_each_seat_twice_then_finishes(make_user):
    people = [make_user(f"s{n}") for n in range(9)]
    event = an_event(people, deals=6)
    event_start(event.pk)
    event = event_play_out(event)
    assert event.status == DuplicateEvent.Status.FINISHED and event.round == 6
    tables = EventTable.objects.filter(event=event).select_related("game")
    assert sorted({t.deal for t in tables}) == [1, 2, 3, 4, 5, 6] and len(tables) == 18
    assert len({t.game.seed for t in tables}) == 6  # one seed a deal
    held = Counter(
        (seat.user_id, seat.number)
        for table in tables
        for seat in table.game.seats.all()
        if seat.user_id
    )
    assert set(held.values()) == {2} and len(held) == 27  # everyone, every seat, twice
    results = event_results(event)
    assert len(results) == 18  # six deals, three seats
    assert {s.results for s in event_standings(results)} == {6}


@pytest.mark.django_db
def test_an_events_tables_run_on_its_clock_and_an_absent_person_is_played_for_then_replaced(
    people,
):
    event = an_event(people[:1], clock=10)
    event_start(event.pk)
    game = tables_of(event, 1)[0].game
    assert game.clock == 10
    seat = game.seats.get(user=people[0]).number
    for _ in (1, 2):  # two cards in a row played for the absent person
        game = until_the_turn_of(game, seat)
        assert game.turn_deadline is not None
        assert flow.run_due(game.pk, now=game.turn_deadline - timedelta(seconds=1)) is False
        assert flow.run_due(game.pk, now=game.turn_deadline).cards == 1
    replaced = Seat.objects.get(game=game, number=seat)
    assert replaced.user_id == people[0].pk and replaced.stand_in  # a bot plays the seat
    while Game.objects.get(pk=game.pk).is_running:  # the table plays on without them
        serve_due(game.pk, later=timedelta(minutes=1))
    runner_idle.send(sender=None)
    assert len(tables_of(event, 2)) == 1  # and the event moves on to its next deal
    assert tables_of(event, 2)[0].game.clock == 10


def until_the_turn_of(game: Game, seat: int) -> Game:
    """Let the bots play until ``seat`` is to play."""
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        if game_load(game).state.to_play == seat or not game.is_running:
            return game
        serve_due(game.pk)
    raise AssertionError("never the seat's turn")


@pytest.mark.django_db
def test_staff_choose_the_deals_and_the_clock_and_cannot_change_the_deals_once_started(
    admin_client, people
):
    response = admin_client.post(
        "/admin/duplicate/duplicateevent/add/",
        {
            "name": "Long duplicate",
            "target": 5,
            "bot": "",
            "deals": 9,
            "clock": 30,
            **{
                f"{prefix}-{field}": value
                for prefix in ("entries", "tables", "exclusions")
                for field, value in (
                    ("TOTAL_FORMS", 0),
                    ("INITIAL_FORMS", 0),
                    ("MIN_NUM_FORMS", 0),
                    ("MAX_NUM_FORMS", 1000),
                )
            },
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    event = DuplicateEvent.objects.get(name="Long duplicate")
    assert (event.deals, event.clock) == (9, 30)
    for person in people:
        event_join(user=person, event_id=event.pk)
    event_start(event.pk)
    page = admin_client.get(f"/admin/duplicate/duplicateevent/{event.pk}/change/").content
    assert b'name="deals"' not in page and b'name="clock"' in page
    event.deals = 13
    with pytest.raises(ValidationError):
        event.full_clean()
