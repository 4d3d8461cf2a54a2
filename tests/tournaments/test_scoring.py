"""Places and points: the winner first, ties share the better place, 4/2/1, the arena's
streak bonus, nothing for leaving; a game is scored once however often its end is heard."""

import pytest

from games.models import Game
from tournaments.models import Entry, TournamentGame
from tournaments.scoring import SeatResult, places, points_for
from tournaments.services import game_score

from .helpers import finish


def test_places_put_the_winner_first_and_ties_share_the_better_place():
    results = [SeatResult(0, 3), SeatResult(1, 10), SeatResult(2, 3)]
    assert places(results, winner=1) == {1: 1, 0: 2, 2: 2}
    assert places([SeatResult(0, 10), SeatResult(1, 10), SeatResult(2, 1)], winner=1) == {
        1: 1,
        0: 2,
        2: 3,
    }


def test_place_points_and_the_streak_bonus_from_the_third_win_in_a_row():
    assert points_for(2, streak_before=5, arena=True, left=False) == (2, 0)
    assert points_for(3, streak_before=0, arena=True, left=False) == (1, 0)
    assert points_for(1, streak_before=0, arena=True, left=False) == (4, 1)
    assert points_for(1, streak_before=1, arena=True, left=False) == (4, 2)
    assert points_for(1, streak_before=2, arena=True, left=False) == (5, 3)
    assert points_for(1, streak_before=2, arena=False, left=False) == (4, 3)  # Swiss: no bonus
    assert points_for(1, streak_before=2, arena=True, left=True) == (0, 0)


@pytest.mark.django_db
def test_a_finished_game_scores_its_people_once(make_tournament, people):
    from tournaments.pairing import tournament_advance
    from tournaments.services import entry_join

    tournament = make_tournament("arena")
    trio = people(3)
    for person in trio:
        entry_join(tournament_id=tournament.pk, user=person)
    assert tournament_advance(tournament_id=tournament.pk) == 1
    game = finish(TournamentGame.objects.get().game)
    assert game.status == Game.Status.FINISHED
    entries = {e.user_id: e for e in Entry.objects.all()}
    seats = {s.user_id: s for s in game.seats.all()}
    winner = game.seats.get(number=game.winner_seat).user_id
    assert entries[winner].points == 4 and entries[winner].wins == 1
    assert sum(e.points for e in entries.values()) in (4 + 2 + 1, 4 + 2 + 2)  # a tie for 2nd
    assert all(e.games == 1 and e.game_points == seats[u].score for u, e in entries.items())
    assert TournamentGame.objects.get().scored
    before = [(e.points, e.games) for e in Entry.objects.order_by("pk")]
    game_score(game_id=game.pk)  # heard again (a runner retrying the aftermath)
    assert [(e.points, e.games) for e in Entry.objects.order_by("pk")] == before


@pytest.mark.django_db
def test_game_create_for_seats_people_and_bots_and_starts(people):
    from games.table.errors import GameError
    from games.table.seats import game_create_for

    one, two = people(2)
    game = game_create_for(people=[two, one], bot="heuristic", target=5, clock=30)
    seats = list(game.seats.order_by("number"))
    assert [s.user_id for s in seats] == [two.pk, one.pk, None] and seats[2].bot == "heuristic"
    assert game.status == Game.Status.IN_PROGRESS and game.created_by is None
    for bad in (
        {"people": [one, one]},
        {"people": []},
        {"people": [one], "bot": "nobody"},
        {"people": [one], "clock": 7},
        {"people": [one], "target": 0},
    ):
        with pytest.raises(GameError):
            game_create_for(**{"bot": "heuristic", "target": 5, **bad})
