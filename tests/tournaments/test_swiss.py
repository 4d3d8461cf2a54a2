"""Swiss rounds avoid repeating a trio of an earlier round where a swap can, preferring
people of like points; a repeat nothing can avoid stays."""

import pytest

from games.models import Seat
from tournaments.models import Entry, TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.services import entry_join
from tournaments.swiss import avoid_repeats, played_trios

from .helpers import finish

POINTS = {"a": 9, "b": 9, "c": 9, "d": 9, "e": 2, "f": 2, "g": 1, "h": 1, "i": 1}


def pair(groups, played):
    return avoid_repeats(groups, played, person=lambda p: p, points=POINTS.__getitem__)


def trios(groups):
    return [frozenset(group) for group in groups]


def test_new_trios_are_left_as_they_are():
    groups = [["a", "b", "c"], ["d", "e", "f"]]
    assert pair(groups, {frozenset("abd")}) == groups


def test_a_repeat_swaps_with_the_nearest_points_first():
    played = {frozenset("abc")}
    paired = pair([["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]], played)
    assert not set(trios(paired)) & played
    assert set(paired[0]) == {"a", "b", "d"}  # d has the points of a, b and c: same group
    assert paired[2] == ["g", "h", "i"]


def test_a_swap_never_makes_another_repeat():
    played = {frozenset("abc"), frozenset("abd"), frozenset("cef")}
    paired = pair([["a", "b", "c"], ["d", "e", "f"]], played)
    assert not set(trios(paired)) & played
    assert sorted(map(sorted, paired)) != [["a", "b", "c"], ["d", "e", "f"]]


def test_an_unavoidable_repeat_stays_and_bye_tables_are_not_trios():
    assert pair([["a", "b", "c"]], {frozenset("abc")}) == [["a", "b", "c"]]
    assert played_trios([(1, "a"), (1, "b"), (2, "c"), (2, "d"), (2, "e")]) == {frozenset("cde")}


@pytest.mark.django_db
def test_a_round_whose_standings_repeat_round_one_seats_new_trios(make_tournament, people):
    tournament = make_tournament("swiss", rounds=2)
    for person in people(6):
        entry_join(tournament_id=tournament.pk, user=person)
    assert tournament_advance(tournament_id=tournament.pk) == 2
    round_one = []
    for tournament_game in TournamentGame.objects.filter(round=1):
        finish(tournament_game.game)
        round_one.append(frozenset(tournament_game.game.seats.values_list("user_id", flat=True)))
    top = round_one[0]  # its three lead the standings: cut in threes, round 1 again
    Entry.objects.filter(user__in=top).update(points=100)
    assert tournament_advance(tournament_id=tournament.pk) == 2
    round_two = [
        frozenset(Seat.objects.filter(game=tg.game).values_list("user_id", flat=True))
        for tg in TournamentGame.objects.filter(round=2)
    ]
    assert not set(round_two) & set(round_one)
