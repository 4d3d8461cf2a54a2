"""Pairing: arenas seat the waiting in threes (bots only for leftovers who waited), Swiss
rounds start when the last one is over; pairing is idempotent, all-or-nothing (a crash
mid-way leaves nothing half-done), and two runners at once never seat a person twice."""

from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Seat
from lab.benchmarks.bursts import at_once
from tournaments.models import Entry, Tournament, TournamentGame
from tournaments.pairing import tournament_advance, tournaments_tick
from tournaments.selectors import standings
from tournaments.services import entry_join

from .helpers import finish

pytestmark = pytest.mark.django_db


def join_all(tournament, persons):
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)


def seated() -> Counter:
    return Counter(Seat.objects.filter(user__isnull=False).values_list("user_id", flat=True))


def test_nothing_starts_before_its_time(make_tournament, people):
    tournament = make_tournament("arena", starts_at=timezone.now() + timedelta(minutes=5))
    join_all(tournament, people(3))
    assert tournaments_tick() == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING and not Game.objects.exists()


def test_an_arena_seats_threes_and_leftovers_get_bots_only_after_waiting(make_tournament, people):
    tournament = make_tournament("arena")
    join_all(tournament, people(7))
    now = timezone.now()
    assert tournament_advance(tournament_id=tournament.pk, now=now) == 2
    assert tournament_advance(tournament_id=tournament.pk, now=now) == 0  # idempotent
    assert sorted(seated().values()) == [1] * 6
    assert all(g.status == Game.Status.IN_PROGRESS for g in Game.objects.all())
    assert not Seat.objects.filter(bot__gt="").exists()
    later = now + timedelta(seconds=31)
    assert tournament_advance(tournament_id=tournament.pk, now=later) == 1
    assert len(seated()) == 7 and Seat.objects.filter(bot__gt="").count() == 2
    assert Entry.objects.filter(byes=1).count() == 1


def test_an_arena_seats_you_again_when_your_game_ends(make_tournament, people):
    tournament = make_tournament("arena")
    join_all(tournament, people(3))
    tournament_advance(tournament_id=tournament.pk)
    finish(TournamentGame.objects.get().game)
    assert all(e.waiting_since is not None for e in Entry.objects.all())
    assert tournament_advance(tournament_id=tournament.pk) == 1
    assert TournamentGame.objects.filter(scored=False).count() == 1


def test_an_arena_stops_pairing_at_its_end_and_finishes_when_its_games_are_over(
    make_tournament, people
):
    tournament = make_tournament("arena")
    join_all(tournament, people(3))
    tournament_advance(tournament_id=tournament.pk)
    after_end = tournament.ends_at + timedelta(seconds=1)
    assert tournament_advance(tournament_id=tournament.pk, now=after_end) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # a game still runs
    finish(TournamentGame.objects.get().game)
    assert tournament_advance(tournament_id=tournament.pk, now=after_end) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert TournamentGame.objects.count() == 1


def test_a_swiss_plays_its_rounds_one_after_the_other(make_tournament, people):
    tournament = make_tournament("swiss", rounds=2)
    join_all(tournament, people(5))
    assert tournament_advance(tournament_id=tournament.pk) == 2  # 3 people, and 2 + a bot
    assert tournament_advance(tournament_id=tournament.pk) == 0  # the round is not over
    first, second = TournamentGame.objects.order_by("pk")
    finish(first.game)
    assert tournament_advance(tournament_id=tournament.pk) == 0  # nor now
    finish(second.game)
    ranked = [entry.user_id for entry in standings(tournament)]
    no_bye = [user for user in ranked if Entry.objects.get(user_id=user).byes == 0]
    assert tournament_advance(tournament_id=tournament.pk) == 2
    assert set(TournamentGame.objects.values_list("round", flat=True)) == {1, 2}
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    # Round 2: the bye goes to the two lowest of the three who had none; the best three
    # of the others sit together.
    top_table, bye_table = (
        {s.user_id for s in tg.game.seats.all() if s.user_id}
        for tg in TournamentGame.objects.filter(round=2).order_by("pk")
    )
    assert bye_table == set(no_bye[1:])
    assert top_table == set(ranked) - bye_table
    for tournament_game in TournamentGame.objects.filter(round=2):
        finish(tournament_game.game)
    assert tournament_advance(tournament_id=tournament.pk) == 0
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert all(e.games == 2 for e in Entry.objects.all())


def test_a_crash_mid_pairing_leaves_nothing_and_the_next_runner_pairs(
    make_tournament, people, monkeypatch
):
    tournament = make_tournament("swiss", rounds=1)
    join_all(tournament, people(6))
    from tournaments import pairing

    real, calls = pairing.game_create_for, []

    def crash_on_the_second_table(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the runner died")
        return real(**kwargs)

    monkeypatch.setattr(pairing, "game_create_for", crash_on_the_second_table)
    with pytest.raises(RuntimeError):
        tournament_advance(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round) == (Tournament.Status.UPCOMING, 0)
    assert not Game.objects.exists() and not TournamentGame.objects.exists()
    monkeypatch.setattr(pairing, "game_create_for", real)
    assert tournament_advance(tournament_id=tournament.pk) == 2
    assert sorted(seated().values()) == [1] * 6


@pytest.mark.django_db(transaction=True)
def test_runners_racing_never_seat_a_person_twice(make_tournament, people):
    tournament = make_tournament("arena")
    join_all(tournament, people(30))
    results = at_once([lambda: tournament_advance(tournament_id=tournament.pk)] * 8)
    assert not [r for r in results if isinstance(r, Exception)]
    assert sum(results) == 10
    assert sorted(seated().values()) == [1] * 30


def test_a_restart_mid_round_picks_up_where_the_tournament_was(make_tournament, people):
    """Everything lives in rows: a fresh runner (nothing in memory) pairs nobody twice,
    and the round goes on once its games (run by any runner) are over."""
    tournament = make_tournament("swiss", rounds=2)
    join_all(tournament, people(6))
    tournament_advance(tournament_id=tournament.pk)
    first, second = TournamentGame.objects.order_by("pk")
    finish(first.game)
    # the server restarts: new runners advance every tournament again from the database
    assert tournaments_tick() == 0 and tournaments_tick() == 0
    assert TournamentGame.objects.count() == 2
    finish(second.game)
    assert tournaments_tick() == 2
    assert set(TournamentGame.objects.values_list("round", flat=True)) == {1, 2}
