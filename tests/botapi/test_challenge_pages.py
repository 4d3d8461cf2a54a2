"""A person answers challenges from the site: the lobby's panel lists them, Accept (a POST
with its CSRF token) makes the game and goes to the table, Decline closes it."""

import pytest
from django.test import Client

from botapi.models import Challenge
from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def challenged_alice(robot, alice, make_token):
    api = Client(headers={"Authorization": f"Bearer {make_token(robot, ('challenge:write',))}"})
    body = {"target": 7, "rated": False, "seats": ["challenged", "medium"]}
    response = api.post("/api/challenge/alice", body, content_type="application/json")
    assert response.status_code == 201
    return Challenge.objects.get(pk=int(response.json()["id"]))


def test_the_lobby_shows_the_panel_and_the_panel_the_challenge(client, alice, challenged_alice):
    client.force_login(alice)
    lobby = client.get("/games/").content.decode()
    assert "data-lobby-challenges" in lobby and "/challenges/" in lobby
    panel = client.get("/challenges/?panel=1").content.decode()
    assert f'data-challenge="{challenged_alice.pk}"' in panel
    assert "robot challenges you to a game to 7 points." in panel
    assert f"/challenges/{challenged_alice.pk}/accept/" in panel
    page = client.get("/challenges/").content.decode()
    assert "<h1>" in page and f'data-challenge="{challenged_alice.pk}"' in page


def test_nobody_else_sees_it(client, bob, challenged_alice):
    client.force_login(bob)
    assert "data-challenge=" not in client.get("/challenges/?panel=1").content.decode()
    assert "Nobody is challenging you now." in client.get("/challenges/").content.decode()
    client.post(f"/challenges/{challenged_alice.pk}/accept/")
    assert not Game.objects.exists()


def test_accept_goes_to_the_new_table(alice, robot, challenged_alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.post(f"/challenges/{challenged_alice.pk}/accept/").status_code == 403
    browser.get("/challenges/")
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        f"/challenges/{challenged_alice.pk}/accept/", {"csrfmiddlewaretoken": token}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    players = {s.number: s.user for s in game.seats.all()}
    assert players[0] == robot and players[1] == alice and players[2] is None
    assert browser.get("/challenges/?panel=1").content.decode().count("data-challenge=") == 0


def test_decline_closes_it_and_a_second_answer_is_told(client, alice, challenged_alice):
    client.force_login(alice)
    response = client.post(f"/challenges/{challenged_alice.pk}/decline/")
    assert response.status_code == 302 and response["Location"] == "/challenges/"
    challenged_alice.refresh_from_db()
    assert challenged_alice.status == "declined"
    page = client.post(f"/challenges/{challenged_alice.pk}/accept/", follow=True)
    assert "This challenge is declined." in page.content.decode()
    assert not Game.objects.exists()


def test_pages_need_a_signed_in_person(client, challenged_alice):
    assert client.get("/challenges/").status_code == 302
    assert client.post(f"/challenges/{challenged_alice.pk}/accept/").status_code == 302
    assert not Game.objects.exists()
