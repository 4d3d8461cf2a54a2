"""Puzzles are found in analysed games: positions with one clearly best card, stored as the
seat's own view at that moment, with the person in that seat."""

import pytest

from analysis import services as analysis_services
from games.engine import CARD_CODES
from puzzles.finding import MIN_CHOICES, clear_best
from puzzles.models import Puzzle
from tests.games.helpers import state_after

from .helpers import HIGH, analysed, finished_game

pytestmark = pytest.mark.django_db


def test_a_card_is_clearly_best_only_by_the_margin_with_three_choices_before_the_end():
    play = {"trick": 5, "values": {"1O": 0.9, "2O": 0.75, "3O": 0.7}}
    assert clear_best(play, 0.15) == "1O"
    assert clear_best(play, 0.16) is None  # 2O is only 0.15 below
    assert clear_best({"trick": 5, "values": {"1O": 0.9, "2O": 0.1}}, 0.15) is None
    assert MIN_CHOICES == 3
    assert clear_best({**play, "trick": 14}, 0.15) is None  # the last three tricks: skipped
    assert clear_best({**play, "trick": 13}, 0.15) == "1O"


def test_an_analysis_makes_puzzles_of_the_seats_view_at_that_moment(alice):
    game = finished_game(alice)
    moves = analysed(game, count=3)
    puzzles = list(Puzzle.objects.filter(game=game).order_by("move"))
    assert [p.move for p in puzzles] == moves and len(moves) == 3
    for puzzle in puzzles:
        state = state_after(game, puzzle.move)
        assert puzzle.seat == 0 and puzzle.user == alice and state.to_play == 0
        assert puzzle.view == {
            **state.view_for(0).to_dict(),
            "played": [CARD_CODES[c] for c in state.played],
        }
        assert sorted(puzzle.view["hand"]) == sorted(puzzle.values)
        assert puzzle.values[puzzle.solution] == HIGH
        assert puzzle.was_missed  # alice played her first card, the best was another
        others = {CARD_CODES[c] for seat in (1, 2) for c in state.hands[seat]}
        assert not others & set(str(puzzle.view).split("'"))  # no other seat's card anywhere
    analysed(game, count=3)  # analysed again: the same puzzles, not twice
    assert Puzzle.objects.filter(game=game).count() == 3


def test_a_real_analysis_with_no_margin_makes_puzzles_of_every_choice(alice, settings):
    settings.COINS_PUZZLE_MARGIN = 0.0
    game = finished_game(alice)
    analysis = analysis_services.analyse_now(game)
    expected = [
        i
        for i, play in enumerate(analysis.plays)
        if len(play["values"]) >= 3 and play["trick"] <= 13
    ]
    assert expected
    puzzles = Puzzle.objects.filter(game=game)
    assert sorted(puzzles.values_list("move", flat=True)) == expected
    for puzzle in puzzles:
        assert puzzle.solution == analysis.plays[puzzle.move]["best"]
        assert (puzzle.user_id is not None) == (puzzle.seat == 0)  # bots: no person


def test_find_puzzles_looks_again_through_done_analyses(alice):
    from django.core.management import call_command

    game = finished_game(alice)
    chosen = analysed(game, count=2)
    Puzzle.objects.all().delete()  # as if analysed before puzzles existed
    call_command("find_puzzles")
    assert sorted(Puzzle.objects.values_list("move", flat=True)) == sorted(chosen)
    call_command("find_puzzles")  # idempotent
    assert Puzzle.objects.count() == 2
