"""Staff in the admin: tokens listed with owner, name, scopes, last use and revoked; revoked
by an action; bot accounts listed and banned by an action; arena entrants and games."""

import pytest
from django.test import Client

from botapi.models import ApiToken
from botarena.models import Entrant
from botarena.pairing import arena_tick

from .helpers import arena_bots

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw-Coins-123")
    client.force_login(boss)
    return client


def test_staff_list_tokens_and_revoke_one(staff, robot, make_token, alice):
    secret = make_token(robot, scopes=("bot:play", "challenge:write"), name="deep thought")
    make_token(alice, name="other")
    listing = staff.get("/admin/botapi/apitoken/").content.decode()
    assert (
        "deep thought" in listing and "robot" in listing and "bot:play, challenge:write" in listing
    )
    token = ApiToken.objects.get(name="deep thought")
    staff.post(
        "/admin/botapi/apitoken/",
        {"action": "revoke", "_selected_action": [token.pk]},
    )
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert ApiToken.objects.get(name="other").revoked_at is None
    client = Client(headers={"Authorization": f"Bearer {secret}"})
    assert client.get("/api/bot/arena").status_code == 401


def test_staff_ban_a_bot_it_is_no_longer_seated_nor_let_in(staff, make_user, make_token, alice):
    banned, other = arena_bots(make_user, 2)
    secret = make_token(banned)
    listing = staff.get("/admin/botarena/botaccount/").content.decode()
    assert "robo0" in listing and "robo1" in listing and "alice" not in listing
    staff.post(
        "/admin/botarena/botaccount/",
        {"action": "ban", "_selected_action": [banned.pk, alice.pk]},
    )
    banned.refresh_from_db()
    alice.refresh_from_db()
    assert not banned.is_active and alice.is_active  # only bot accounts are banned
    assert Entrant.objects.get(user=banned).status == Entrant.Status.BANNED
    assert (
        Client(headers={"Authorization": f"Bearer {secret}"}).get("/api/bot/arena").status_code
        == 401
    )
    arena_tick(games_at_once=5)
    assert not banned.seats.exists() and other.seats.count() == 1
    assert "robo0" not in staff.get("/bots/").content.decode()


def test_staff_see_the_entrants_and_the_arena_games(staff, make_user):
    arena_bots(make_user, 2)
    arena_tick(games_at_once=1)
    entrants = staff.get("/admin/botarena/entrant/").content.decode()
    assert "robo0" in entrants and "easy (site bot)" in entrants
    games = staff.get("/admin/botarena/arenagame/").content.decode()
    assert "Arena game" in games
    entrant = Entrant.objects.get(user__username="robo0")
    assert staff.get(f"/admin/botarena/entrant/{entrant.pk}/change/").status_code == 200
