"""The API's limits hold under a burst: 50 requests released at once, each in a thread with
a client (and a database connection) of its own, never pass a limit of 5, per token or per
account; each refusal is a 429 with {"error", "retry_after"}."""

import pytest
from django.db import connection
from django.test import Client

from botapi.models import ApiGame
from games.models import Game, Play
from lab.benchmarks.bursts import at_once

from .helpers import my_cards, open_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="bursts need PostgreSQL"),
]
BURST, LIMIT, PLENTY = 50, 5, 10_000


def bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


def statuses(responses) -> list[int]:
    assert not [r for r in responses if isinstance(r, Exception)], responses
    for response in responses:
        if response.status_code == 429:
            assert response.json().keys() == {"error", "retry_after"}
            assert int(response["Retry-After"]) == response.json()["retry_after"] > 0
    return [r.status_code for r in responses]


def burst(secrets: list[str], method: str, url: str, body=None) -> list[int]:
    clients = [bearer(secrets[n % len(secrets)]) for n in range(BURST)]
    if method == "post":
        calls = [
            lambda c=c: c.post(url, body or {}, content_type="application/json") for c in clients
        ]
    else:
        calls = [lambda c=c: c.get(url) for c in clients]
    return statuses(at_once(calls))


@pytest.mark.parametrize("per", ["token", "account"])
def test_fifty_cards_at_once_pass_the_move_limit_five_times(robot, make_token, settings, per):
    secrets = [make_token(robot)] if per == "token" else [make_token(robot), make_token(robot)]
    game = open_game(bearer(secrets[0]))
    settings.COINS_API_MOVES = (LIMIT, PLENTY) if per == "token" else (PLENTY, LIMIT)
    settings.COINS_API_MOVE_WINDOW = 600  # the window cannot end during the burst
    card = my_cards(game)[0]
    answers = burst(secrets, "post", f"/api/bot/game/{game.pk}/play/{card}")
    assert answers.count(429) == BURST - LIMIT
    assert 200 in answers and set(answers) <= {200, 400, 409, 429}
    assert Play.objects.filter(game=game, seat=0, card=card).count() == 1


@pytest.mark.parametrize("per", ["token", "account"])
def test_fifty_new_games_at_once_pass_the_daily_limit_five_times(robot, make_token, settings, per):
    secrets = [make_token(robot)] if per == "token" else [make_token(robot), make_token(robot)]
    settings.COINS_API_GAMES_PER_DAY = (LIMIT, PLENTY) if per == "token" else (PLENTY, LIMIT)
    body = {"opponents": ["easy", "easy"]}
    answers = burst(secrets, "post", "/api/games", body)
    assert answers.count(201) == LIMIT and answers.count(429) == BURST - LIMIT
    assert Game.objects.count() == ApiGame.objects.count() == LIMIT


@pytest.mark.parametrize("per", ["token", "account"])
def test_fifty_new_games_at_once_pass_the_games_at_once_limit(robot, make_token, settings, per):
    secrets = [make_token(robot)] if per == "token" else [make_token(robot), make_token(robot)]
    settings.COINS_API_GAMES_AT_ONCE = (LIMIT, PLENTY) if per == "token" else (PLENTY, LIMIT)
    answers = burst(secrets, "post", "/api/games", {"opponents": ["easy", "easy"]})
    assert answers.count(201) == LIMIT and answers.count(429) == BURST - LIMIT
    assert Game.objects.filter(status=Game.Status.IN_PROGRESS).count() == LIMIT


def test_a_refused_game_gives_its_daily_slot_back(robot, make_token, settings):
    secret = make_token(robot)
    settings.COINS_API_GAMES_PER_DAY = (1, PLENTY)
    client = bearer(secret)
    bad = client.post("/api/games", {"target": 0}, content_type="application/json")
    good = client.post(
        "/api/games", {"opponents": ["easy", "easy"]}, content_type="application/json"
    )
    assert (bad.status_code, good.status_code) == (400, 201)
