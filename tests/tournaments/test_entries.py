"""Joining and leaving, the entry limit under a burst, staff removing a player (the reason
shown to them) and cancelling a tournament (no more pairing)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from lab.benchmarks.bursts import at_once
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.services import (
    TournamentError,
    entry_join,
    entry_leave,
    entry_remove,
    tournament_cancel,
)

pytestmark = pytest.mark.django_db


def test_joining_twice_is_one_entry_and_leaving_before_the_start_removes_it(make_tournament, alice):
    tournament = make_tournament("swiss", starts_at=timezone.now() + timedelta(hours=1))
    entry_join(tournament_id=tournament.pk, user=alice)
    entry_join(tournament_id=tournament.pk, user=alice)
    assert Entry.objects.count() == 1
    entry_leave(tournament_id=tournament.pk, user=alice)
    assert not Entry.objects.exists()
    with pytest.raises(TournamentError):
        entry_leave(tournament_id=tournament.pk, user=alice)


def test_a_running_swiss_is_closed_but_a_running_arena_takes_newcomers(make_tournament, alice, bob):
    swiss, arena = make_tournament("swiss"), make_tournament("arena")
    entry_join(tournament_id=swiss.pk, user=bob)
    entry_join(tournament_id=arena.pk, user=bob)
    tournament_advance(tournament_id=swiss.pk)
    tournament_advance(tournament_id=arena.pk)
    with pytest.raises(TournamentError, match="can no longer be joined"):
        entry_join(tournament_id=swiss.pk, user=alice)
    assert entry_join(tournament_id=arena.pk, user=alice).is_active


def test_leaving_a_running_arena_stops_pairing_and_coming_back_keeps_the_points(
    make_tournament, people
):
    tournament = make_tournament("arena")
    trio = people(3)
    for person in trio:
        entry_join(tournament_id=tournament.pk, user=person)
    tournament_advance(tournament_id=tournament.pk)  # it runs, with a table
    Entry.objects.filter(user=trio[0]).update(points=7)
    entry_leave(tournament_id=tournament.pk, user=trio[0])
    entry = Entry.objects.get(user=trio[0])
    assert entry.withdrawn and entry.points == 7
    assert entry_join(tournament_id=tournament.pk, user=trio[0]).points == 7


@pytest.mark.django_db(transaction=True)
def test_the_entry_limit_holds_under_a_burst_of_fifty(make_tournament, people):
    tournament = make_tournament("arena", max_players=12)
    persons = people(50)
    results = at_once(
        [lambda p=p: entry_join(tournament_id=tournament.pk, user=p) for p in persons]
    )
    assert sum(isinstance(r, Entry) for r in results) == 12
    assert all(isinstance(r, (Entry, TournamentError)) for r in results)
    assert Entry.objects.count() == 12


def test_a_removed_player_is_paired_no_more_and_sees_why(make_tournament, people, client):
    tournament = make_tournament("arena")
    persons = people(4)
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)
    entry = Entry.objects.get(user=persons[0])
    with pytest.raises(TournamentError):
        entry_remove(entry_id=entry.pk, reason=" ")
    entry_remove(entry_id=entry.pk, reason="Playing two accounts")
    later = timezone.now() + timedelta(minutes=5)  # bots for anyone left over
    tournament_advance(tournament_id=tournament.pk, now=later)
    assert not Game.objects.filter(seats__user=persons[0]).exists()
    assert Game.objects.filter(seats__user__in=persons[1:]).distinct().count() == 1
    with pytest.raises(TournamentError, match="Playing two accounts"):
        entry_join(tournament_id=tournament.pk, user=persons[0])
    client.force_login(persons[0])
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert "data-removed" in html and "Playing two accounts" in html
    assert 'data-player="p0"' not in html


def test_a_cancelled_tournament_pairs_and_scores_no_more(make_tournament, people):
    from .helpers import finish

    tournament = make_tournament("arena")
    for person in people(3):
        entry_join(tournament_id=tournament.pk, user=person)
    tournament_advance(tournament_id=tournament.pk)
    tournament_cancel(tournament_id=tournament.pk, reason="Server maintenance")
    finish(TournamentGame.objects.get().game)  # the game plays on, as an ordinary game
    assert tournament_advance(tournament_id=tournament.pk) == 0
    assert all(e.points == 0 and e.games == 0 for e in Entry.objects.all())
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    with pytest.raises(TournamentError):
        tournament_cancel(tournament_id=tournament.pk)
