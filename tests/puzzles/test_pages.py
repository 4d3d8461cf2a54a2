"""/puzzles/: one puzzle at a time for people who are logged in, answers checked on the
server (one counts), private games' puzzles for their players only, hidden ones never."""

import re

import pytest

from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRecord
from puzzles.services import expected_score
from tests.games.helpers import assert_no_hidden_cards

from .helpers import analysed, finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="pw-Coins-123")


def served(client, path="/puzzles/") -> Puzzle | None:
    html = client.get(path).content.decode()
    match = re.search(r'data-puzzle="(\d+)"', html)
    return Puzzle.objects.get(pk=match.group(1)) if match else None


def test_visitors_are_asked_to_sign_up(client, alice):
    analysed(finished_game(alice))
    html = client.get("/puzzles/").content.decode()
    assert "data-signup-prompt" in html and "data-puzzle" not in html
    assert client.post(f"/puzzles/{Puzzle.objects.first().pk}/", {"card": "1O"}).status_code == 404


def test_the_page_shows_the_seats_own_view_and_never_another_seats_cards(client, alice, bob):
    game = finished_game(alice)
    analysed(game, count=3)
    client.force_login(bob)
    for puzzle in Puzzle.objects.filter(game=game):
        html = client.get(f"/puzzles/{puzzle.pk}/").content.decode()
        assert sorted(re.findall(r'name="card" value="([^"]+)"', html)) == sorted(
            puzzle.view["hand"]
        )
        assert_no_hidden_cards(html, game, seat=puzzle.seat, moves=puzzle.move)
        answered = client.post(f"/puzzles/{puzzle.pk}/", {"card": puzzle.solution})
        assert_no_hidden_cards(answered.content.decode(), game, seat=puzzle.seat, moves=puzzle.move)


def test_a_right_and_a_wrong_answer_count_and_show_the_analysis(client, alice, bob):
    game = finished_game(alice)
    analysed(game, count=2)
    client.force_login(bob)
    first = served(client)
    html = client.post(f"/puzzles/{first.pk}/", {"card": first.solution}).content.decode()
    assert 'data-solved="true"' in html
    assert all(f'data-value="{code}"' in html for code in first.values)
    assert f'href="/games/{game.pk}/replay/?hand={first.hand_number}&amp;trick=' in html
    record = PuzzleRecord.objects.get(user=bob)
    assert (record.solved, record.failed, record.streak) == (1, 0, 1)
    assert record.rating == pytest.approx(1500 + 32 * (1 - expected_score(1500, 1500)))
    first.refresh_from_db()
    assert first.rating == pytest.approx(1500 - 16)
    second = served(client)
    assert second is not None and second != first  # a solved puzzle is not served again
    wrong = next(code for code in second.view["hand"] if code != second.solution)
    html = client.post(f"/puzzles/{second.pk}/", {"card": wrong}).content.decode()
    assert 'data-solved="false"' in html
    record.refresh_from_db()
    assert (record.solved, record.failed, record.streak, record.best_streak) == (1, 1, 0, 1)


def test_a_forged_card_is_refused_and_changes_nothing(client, alice, bob):
    analysed(finished_game(alice), count=1)
    client.force_login(bob)
    puzzle = served(client)
    held = puzzle.view["hand"]
    other = next(code for code in ("1O", "1C", "1E", "1B", "12O") if code not in held)
    for forged in (other, "ZZ", ""):
        response = client.post(f"/puzzles/{puzzle.pk}/", {"card": forged})
        assert response.status_code == 400
        assert "data-refusal" in response.content.decode()
    assert not PuzzleAttempt.objects.exists()
    assert not PuzzleRecord.objects.filter(solved__gt=0).exists()
    puzzle.refresh_from_db()
    assert puzzle.rating == 1500


def test_only_the_first_answer_counts(client, alice, bob):
    analysed(finished_game(alice), count=1)
    client.force_login(bob)
    puzzle = served(client)
    wrong = next(code for code in puzzle.view["hand"] if code != puzzle.solution)
    client.post(f"/puzzles/{puzzle.pk}/", {"card": wrong})
    html = client.post(f"/puzzles/{puzzle.pk}/", {"card": puzzle.solution}).content.decode()
    assert "data-repeat" in html and 'data-solved="false"' in html
    attempt = PuzzleAttempt.objects.get()
    assert (attempt.card, attempt.solved) == (wrong, False)
    record = PuzzleRecord.objects.get(user=bob)
    assert (record.solved, record.failed) == (0, 1)
    assert served(client) is None  # nothing left for bob


def test_private_games_puzzles_are_for_their_players_only(client, alice, bob):
    game = finished_game(alice, is_public=False)
    analysed(game, count=1)
    puzzle = Puzzle.objects.get(game=game)
    client.force_login(bob)
    assert served(client) is None
    assert client.get(f"/puzzles/{puzzle.pk}/").status_code == 404
    assert client.post(f"/puzzles/{puzzle.pk}/", {"card": puzzle.solution}).status_code == 404
    client.force_login(alice)
    assert served(client) == puzzle
    html = client.post(f"/puzzles/{puzzle.pk}/", {"card": puzzle.solution}).content.decode()
    assert "data-replay" in html


def test_hidden_puzzles_are_never_served(client, alice, bob):
    analysed(finished_game(alice), count=2)
    hidden, shown = Puzzle.objects.order_by("pk")
    Puzzle.objects.filter(pk=hidden.pk).update(hidden=True)
    client.force_login(bob)
    assert served(client) == shown
    assert client.get(f"/puzzles/{hidden.pk}/").status_code == 404
    assert client.post(f"/puzzles/{hidden.pk}/", {"card": hidden.solution}).status_code == 404
    client.post(f"/puzzles/{shown.pk}/", {"card": shown.solution})
    assert served(client) is None


def test_learn_from_your_mistakes_serves_your_own_missed_positions_first(client, alice, bob):
    analysed(finished_game(bob), count=2)  # bob's game: not alice's mistakes
    mine = finished_game(alice)
    analysed(mine, count=1)
    client.force_login(alice)
    puzzle = served(client, "/puzzles/?from=mine")
    assert puzzle.game == mine and puzzle.user == alice and puzzle.was_missed


def test_staff_hide_puzzles_from_the_admin(client, alice, django_user_model):
    analysed(finished_game(alice), count=2)
    staff = django_user_model.objects.create_superuser("staff", password="pw-Coins-123")
    client.force_login(staff)
    assert client.get("/admin/puzzles/puzzle/?hidden__exact=0").status_code == 200
    ids = list(Puzzle.objects.values_list("pk", flat=True))
    client.post("/admin/puzzles/puzzle/", {"action": "hide", "_selected_action": [str(ids[0])]})
    assert list(Puzzle.objects.filter(hidden=True).values_list("pk", flat=True)) == [ids[0]]
