"""Playing the day's games: the button starts or resumes, one game per person and number
(also under a burst), the same deals for everyone, and the day's results (JSON and page)."""

import json

import pytest
from django.test import Client

from duplicate import days
from duplicate.models import DuplicateEntry
from duplicate.services import duplicate_play
from games.history.records import game_record
from games.models import Game
from lab.benchmarks.bursts import at_once

from .conftest import DAY
from .helpers import play_through

pytestmark = pytest.mark.django_db


def test_the_page_offers_each_game_and_the_button_starts_then_resumes(client, alice):
    client.force_login(alice)
    html = client.get("/duplicate/").content.decode()
    assert html.count('data-action="duplicate-play"') == 3
    response = client.post("/duplicate/play/", {"number": "2"})
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == f"/games/{game.pk}/"
    assert (game.is_public, game.is_rated, game.seed) == (False, False, days.seed_of(DAY, 2))
    assert [s.user_id for s in game.seats.order_by("number")] == [alice.pk, None, None]
    assert game.status == Game.Status.IN_PROGRESS
    again = client.post("/duplicate/play/", {"number": "2"})
    assert again.url == f"/games/{game.pk}/" and Game.objects.count() == 1
    assert 'data-state="playing"' in client.get("/duplicate/").content.decode()
    assert client.post("/duplicate/play/", {"number": "4"}).url == "/duplicate/"
    assert Game.objects.count() == 1


def test_seeds_are_secret_and_differ_by_day_and_number(settings):
    seeds = {days.seed_of(DAY, n) for n in (1, 2, 3)} | {days.seed_of(DAY.replace(day=2), 1)}
    assert len(seeds) == 4 and all(len(seed) == 64 for seed in seeds)
    settings.COINS_DUPLICATE_SECRET = "another secret"
    assert days.seed_of(DAY, 1) not in seeds


def test_everyone_gets_the_same_deck_for_each_hand_reached_with_the_same_dealer(
    settings, alice, bob
):
    settings.COINS_DUPLICATE_TARGET = 20  # past 12: every game has a second hand
    first = play_through(duplicate_play(user=alice, number=1, day=DAY), alice)
    second = play_through(
        duplicate_play(user=bob, number=1, day=DAY), bob, pick=lambda hand: hand[-1]
    )
    hands = [game_record(game)["hands"] for game in (first, second)]
    plays = [[t["cards"] for h in record for t in h["tricks"]] for record in hands]
    assert plays[0] != plays[1]  # they played differently ...
    same_dealer = [(a, b) for a, b in zip(*hands, strict=False) if a["dealer"] == b["dealer"]]
    assert same_dealer and same_dealer[0][0]["number"] == 1
    for a, b in same_dealer:  # ... and got the same cards wherever the same dealer dealt
        assert a["deck"] == b["deck"] and len(a["deck"]) == 48


@pytest.mark.django_db(transaction=True)
def test_fifty_parallel_play_posts_start_exactly_one_game(alice):
    clients = []
    for _ in range(50):
        client = Client()
        client.force_login(alice)
        clients.append(client)
    responses = at_once([lambda c=c: c.post("/duplicate/play/", {"number": "1"}) for c in clients])
    assert not [r for r in responses if isinstance(r, Exception)], responses
    game = Game.objects.get()
    assert DuplicateEntry.objects.get().game == game
    assert {(r.status_code, r.url) for r in responses} == {(302, f"/games/{game.pk}/")}


def test_the_day_as_json_has_finished_results_only(client, alice, bob, carol):
    done = [
        play_through(duplicate_play(user=person, number=1, day=DAY), person)
        for person in (alice, bob)
    ]
    duplicate_play(user=carol, number=1, day=DAY)  # still running: no result yet
    document = json.loads(client.get(f"/duplicate/{DAY.isoformat()}.json").content)
    assert document["date"] == "2040-03-01"
    assert [g["number"] for g in document["games"]] == [1, 2, 3]
    results = document["games"][0]["results"]
    assert {r["game_id"] for r in results} == {g.pk for g in done}
    for result, game in ((r, Game.objects.get(pk=r["game_id"])) for r in results):
        assert set(result) >= {"player", "game_id", "points", "won", "matchpoints"}
        seat = game.seats.get(number=0)
        assert result["player"] == seat.user.username
        assert (result["points"], result["won"]) == (seat.score, game.winner_seat == 0)
    assert sum(r["matchpoints"] for r in results) == 1.0  # two results share one comparison
    assert document["games"][1]["results"] == document["games"][2]["results"] == []


def test_the_day_page_shows_the_table_your_position_and_the_spread(client, alice, bob):
    for person in (alice, bob):
        play_through(duplicate_play(user=person, number=1, day=DAY), person)
    winners = Game.objects.filter(winner_seat=0).count()
    client.force_login(alice)
    html = client.get("/duplicate/").content.decode()
    assert f"Of 2 players, {winners} won this deal." in html
    assert 'data-standing="alice"' in html and 'data-standing="bob"' in html
    assert "Your position:" in html and 'data-state="finished"' in html
    assert f"/games/{alice.seats.get().game_id}/replay/" in html
    assert f"/games/{bob.seats.get().game_id}/replay/" not in html  # not before the close


def test_staff_see_the_days_and_their_results_in_the_admin(client, alice, django_user_model):
    play_through(duplicate_play(user=alice, number=1, day=DAY), alice)
    staff = django_user_model.objects.create_superuser("boss", password="pw-Coins-123")
    client.force_login(staff)
    listing = client.get("/admin/duplicate/duplicateday/")
    assert listing.status_code == 200 and "2040-03-01" in listing.content.decode()
    day = DuplicateEntry.objects.get().day
    html = client.get(f"/admin/duplicate/duplicateday/{day.pk}/change/").content.decode()
    assert "#1 1. alice:" in html and "(50.0%)" in html
    assert client.get("/admin/duplicate/duplicateentry/").status_code == 200
