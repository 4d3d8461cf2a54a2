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


def test_a_person_challenges_a_bot_from_its_player_page(client, alice, robot, settings):
    client.force_login(alice)
    page = client.get("/players/robot/").content.decode()
    assert "data-challenge-form" in page and "/challenges/send/robot/" in page
    assert "data-challenge-form" not in client.get("/players/alice/").content.decode()
    form = {"target": "15", "level": "hard", "rated": "on"}
    response = client.post("/challenges/send/robot/", form)
    assert response.status_code == 302 and response["Location"] == "/challenges/"
    challenge = Challenge.objects.get()
    assert (challenge.challenger, challenge.challenged) == (alice, robot)
    assert (challenge.target, challenge.rated, challenge.seats) == (
        15,
        True,
        ["challenged", "hard"],
    )
    page = client.get("/challenges/").content.decode()
    assert f'data-sent-challenge="{challenge.pk}" data-status="created"' in page
    client.post(f"/challenges/{challenge.pk}/cancel/")
    challenge.refresh_from_db()
    assert challenge.status == "canceled"


def test_a_bad_site_challenge_changes_nothing(client, alice, robot, settings):
    client.force_login(alice)
    assert (
        client.post("/challenges/send/robot/", {"target": "0", "level": "hard"}).status_code == 302
    )
    assert (
        client.post("/challenges/send/nobody/", {"target": "5", "level": "hard"}).status_code == 302
    )
    settings.COINS_API_CHALLENGES = (1, 1)
    client.post("/challenges/send/robot/", {"target": "5", "level": "easy"})
    page = client.post("/challenges/send/robot/", {"target": "5", "level": "easy"}, follow=True)
    assert "Too many challenges" in page.content.decode()
    assert Challenge.objects.count() == 1
