"""/bots/: bots ranked with games, wins, win rate and its 95% interval, rating and owner, a
bot account's line linking to its player page, marked BOT; as many queries with many games
as with none; a signed-in bot account joins and leaves with a button."""

import pytest

from botarena.models import Entrant
from botarena.pairing import arena_tick
from botarena.selectors import bot_lines
from botarena.services import entry_join
from botarena.stats import wilson
from ratings.models import PlayerRating

from .helpers import arena_bots

pytestmark = pytest.mark.django_db


def test_wilson_interval_matches_known_values():
    low, high = wilson(7, 10)
    assert (round(low, 4), round(high, 4)) == (0.3968, 0.8922)
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and 0.16 < high < 0.17
    low, high = wilson(20, 20)
    assert high == 1.0 and 0.83 < low < 0.84


def test_the_page_ranks_bots_by_rating_with_their_win_rate_and_owner(client, make_user):
    strong, weak = arena_bots(make_user, 2)
    entry_join(user=strong, owner="Team Ada")
    Entrant.objects.filter(user=strong).update(played=10, wins=7, games=10)
    Entrant.objects.filter(user=weak).update(played=4, wins=0, games=4)
    PlayerRating.objects.create(user=strong, mu=30, sigma=2)
    PlayerRating.objects.create(user=weak, mu=20, sigma=2)
    arena_tick(games_at_once=0)  # the levels take their places (no game)
    html = client.get("/bots/").content.decode()
    assert html.index("robo0") < html.index("robo1")
    assert 'href="/players/robo0/"' in html and "BOT" in html and "Team Ada" in html
    assert '70% <span class="interval">(40\u201389%)</span>' in html
    lines = bot_lines()
    assert [line.username for line in lines[:2]] == ["robo0", "robo1"]
    assert len(lines) == 5 and {line.owner for line in lines[2:]} == {"Coins"}


def test_the_page_is_linked_from_the_leaderboards_and_every_footer(client):
    assert 'href="/bots/"' in client.get("/leaderboards/").content.decode()
    assert 'href="/bots/"' in client.get("/").content.decode()


def test_queries_do_not_grow_with_games_or_bots(client, make_user, django_assert_num_queries):
    arena_bots(make_user, 1, prefix="first")
    arena_tick(games_at_once=0)
    client.get("/bots/")
    with django_assert_num_queries(2):
        bot_lines()
    arena_bots(make_user, 6, prefix="more")
    arena_tick(games_at_once=4)
    Entrant.objects.update(played=50, wins=10)
    with django_assert_num_queries(2):
        assert len(bot_lines()) == 10


def test_a_signed_in_bot_account_joins_and_leaves_with_a_button(client, robot):
    client.force_login(robot)
    assert 'name="join"' in client.get("/bots/").content.decode()
    client.post("/bots/", {"join": ""})
    assert Entrant.objects.get(user=robot).status == Entrant.Status.ACTIVE
    assert 'name="leave"' in client.get("/bots/").content.decode()
    client.post("/bots/", {"leave": ""})
    assert Entrant.objects.get(user=robot).status == Entrant.Status.LEFT


def test_a_person_finds_no_button_and_cannot_join(client, alice):
    client.force_login(alice)
    assert 'name="join"' not in client.get("/bots/").content.decode()
    client.post("/bots/", {"join": ""})
    assert not Entrant.objects.filter(user=alice).exists()
