"""An invite link to a private table survives signing up and logging in.

A signed-out friend who followed the link and pressed "Create an account" used to land on
a 404 after signing up: the link's token was lost on the way.
"""

import re

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from games.table import seats as services

pytestmark = pytest.mark.django_db

PASSWORD = "a-Strong-pass-42"


@pytest.fixture
def private_table(alice) -> Game:
    return services.game_create(
        creator=alice, target=10, seat_kinds=["me", "open", "heuristic"], is_public=False
    )


def link_of(page: str, action: str) -> str:
    return re.search(rf'href="([^"]+)" data-action="{action}"', page)[1].replace("&amp;", "&")


def test_sign_up_from_an_invite_link_lands_on_the_table_and_can_join(client, private_table):
    game = private_table
    page = client.get(f"/games/{game.pk}/?invite={game.invite_token}").content.decode()
    signup = link_of(page, "signup-to-join")
    assert game.invite_token in signup
    response = client.post(
        signup,
        {"username": "dora", "password1": PASSWORD, "password2": PASSWORD},
        follow=True,
    )
    assert response.status_code == 200
    assert response.redirect_chain[-1][0] == f"/games/{game.pk}/?invite={game.invite_token}"
    assert 'data-action="join"' in response.content.decode()
    client.post(f"/games/{game.pk}/join/", {"invite": game.invite_token})
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS
    assert game.seats.filter(user__username="dora").exists()


def test_log_in_from_an_invite_link_lands_on_the_table(client, private_table, bob):
    game = private_table
    page = client.get(f"/games/{game.pk}/?invite={game.invite_token}").content.decode()
    login = link_of(page, "login-to-join")
    response = client.post(login, {"username": "bob", "password": "pw-Coins-123"}, follow=True)
    assert response.status_code == 200
    assert 'data-action="join"' in response.content.decode()


def test_a_followed_link_is_remembered_even_when_the_query_string_is_lost(client, private_table):
    """Signing up from the header (no ``next``) and coming back to the bare table address
    still works: the session remembers the invite the visitor followed."""
    game = private_table
    assert client.get(f"/games/{game.pk}/").status_code == 404  # no link yet: no table
    client.get(f"/games/{game.pk}/?invite={game.invite_token}")
    client.post(
        "/accounts/signup/", {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert get_user_model().objects.filter(username="dora").exists()
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    assert f"?invite={game.invite_token}" in page.content.decode()  # the socket's address too
    response = client.post(f"/games/{game.pk}/join/", {"seat": "1"})  # no token in the form
    assert response.status_code == 302
    assert game.seats.filter(user__username="dora").exists()


def test_a_wrong_invite_is_not_remembered_and_shows_nothing(client, private_table):
    game = private_table
    assert client.get(f"/games/{game.pk}/?invite=not-the-token").status_code == 404
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert "coins_invites" not in client.session


def test_a_public_table_needs_no_invite_and_stores_none(client, alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    assert client.get(f"/games/{game.pk}/?invite={game.invite_token}").status_code == 200
    assert "coins_invites" not in client.session
