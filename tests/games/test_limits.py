"""Per-person limits: tables waiting for players, games at once, and the lobby's share of
one creator. Refusals are clear and change nothing."""

import re

import pytest

from games.models import Game
from games.table import seats as services
from games.table.seats import GameError

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    settings.COINS_MAX_WAITING_TABLES = 2
    settings.COINS_MAX_RUNNING_GAMES = 3
    settings.COINS_LOBBY_TABLES_PER_CREATOR = 2
    return settings


def waiting_table(user) -> Game:
    return services.game_create(creator=user, target=10, seat_kinds=["me", "open", "open"])


def test_a_person_may_have_only_so_many_tables_waiting(limits, alice):
    waiting_table(alice)
    waiting_table(alice)
    with pytest.raises(GameError, match="You have 2 tables waiting for players"):
        waiting_table(alice)
    assert Game.objects.filter(created_by=alice).count() == 2
    services.game_quick_play(user=alice)  # a game against bots needs no waiting table


def test_a_person_may_play_only_so_many_games_at_once(limits, alice, bob):
    for _ in range(3):
        services.game_quick_play(user=alice)
    with pytest.raises(GameError, match="You are at 3 tables already"):
        services.game_quick_play(user=alice)
    table = waiting_table(bob)
    with pytest.raises(GameError, match="You are at 3 tables already"):
        services.seat_join(game_id=table.pk, user=alice)
    assert Game.objects.filter(seats__user=alice).count() == 3


def test_the_form_shows_the_refusal(limits, client, alice):
    client.force_login(alice)
    for _ in range(2):
        waiting_table(alice)
    data = {"target": "10", "seat_left": "open", "seat_right": "careful", "is_public": "public"}
    response = client.post("/games/new/", data, follow=True)
    assert "You have 2 tables waiting for players" in response.content.decode()
    assert Game.objects.count() == 2


def test_the_lobby_lists_at_most_two_tables_of_one_creator(limits, client, alice, bob, settings):
    settings.COINS_MAX_WAITING_TABLES = settings.COINS_MAX_RUNNING_GAMES = 10
    alices = [waiting_table(alice) for _ in range(5)]
    bobs = waiting_table(bob)
    html = client.get("/games/").content.decode()
    shown = {int(pk) for pk in re.findall(r'data-game="(\d+)"', html)}
    assert {alices[-1].pk, alices[-2].pk, bobs.pk} <= shown
    assert not shown & {game.pk for game in alices[:3]}


def test_quick_play_past_the_limit_says_why_in_the_lobby(limits, client, alice):
    client.force_login(alice)
    for _ in range(3):
        services.game_quick_play(user=alice)
    response = client.post("/games/quick-play/", follow=True)
    assert "You are at 3 tables already" in response.content.decode()
    assert Game.objects.count() == 3
