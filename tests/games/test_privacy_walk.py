"""A private table, walked as a stranger: no page lists it, links to it, or opens it (the
table, its replay, its record); the people who sat at it see it everywhere."""

import re
from datetime import timedelta

import pytest
from django.core.cache import cache

from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from ratings.models import Leaderboard
from ratings.services import game_rate

from .helpers import serve_due

pytestmark = pytest.mark.django_db

LISTS = [
    "/",
    "/games/",
    "/players/alice/",
    "/players/alice/games/",
    "/players/bob/",
    "/leaderboards/",
    "/leaderboards/main/",
]


def private_game(alice, bob) -> Game:
    game = services.game_create(
        creator=alice, target=3, seat_kinds=["me", "open", "random"], is_public=False
    )
    services.seat_join(game_id=game.pk, user=bob, invite_token=game.invite_token)
    people = {0: alice, 1: bob}
    while True:
        serve_due(game.pk, later=timedelta(minutes=1))
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            break
        state = game_load(game).state
        if state.to_play in people:
            card = CARD_CODES[state.hands[state.to_play][0]]
            flow.play_card(game_id=game.pk, user=people[state.to_play], card=card)
    game_rate(game_id=game.pk)
    return game


def test_a_stranger_never_meets_a_private_game(client, alice, bob, make_user):
    Leaderboard.objects.create(name="Main", slug="main")
    cache.clear()
    game = private_game(alice, bob)
    pages = {}
    for viewer in (None, make_user("dora")):
        client.logout() if viewer is None else client.force_login(viewer)
        for path in LISTS:
            response = client.get(path)
            assert response.status_code == 200, path
            html = response.content.decode()
            assert not re.search(rf"/games/{game.pk}/", html), path
            assert f'data-game="{game.pk}"' not in html, path
            pages[path] = html
        for path in (
            f"/games/{game.pk}/",
            f"/games/{game.pk}/replay/",
            f"/games/{game.pk}/record.json",
        ):
            assert client.get(path).status_code in (403, 404), path
    client.force_login(bob)
    assert f"/games/{game.pk}/replay/" in client.get("/players/alice/games/").content.decode()
    assert client.get(f"/games/{game.pk}/replay/").status_code == 200
    assert client.get(f"/games/{game.pk}/record.json").status_code == 200
