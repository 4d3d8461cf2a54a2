"""Joining and leaving the arena through the API: Bearer token with bot:play from a bot
account; JSON answers, and 401/403/400 refusals that change nothing."""

import pytest
from django.test import Client

from botarena.models import Entrant
from botarena.services import bots_ban

pytestmark = pytest.mark.django_db

JOIN, LEAVE, STATUS = "/api/bot/arena/join", "/api/bot/arena/leave", "/api/bot/arena"


def post(client, url, body=""):
    """A POST as a program sends it: a JSON body, or none."""
    return client.post(url, body, content_type="application/json")


def test_a_bot_joins_says_who_runs_it_and_leaves(robot, api):
    assert api.get(STATUS).json() == {
        "arena": {"status": "out", "reason": "", "games": 0, "wins": 0}
    }
    answer = post(api, JOIN, {"owner": "Ada  Lovelace"})
    assert answer.status_code == 200
    assert answer.json() == {
        "ok": True,
        "arena": {"status": "active", "reason": "", "games": 0, "wins": 0},
    }
    assert Entrant.objects.get(user=robot).owner == "Ada Lovelace"
    assert post(api, JOIN).json()["arena"]["status"] == "active"  # twice: still in, once
    assert Entrant.objects.filter(user=robot).count() == 1
    assert post(api, LEAVE).json()["arena"]["status"] == "left"
    assert api.get(STATUS).json()["arena"]["status"] == "left"


def test_without_a_valid_token_the_answer_is_401(robot):
    assert post(Client(), JOIN).status_code == 401
    bad = Client(headers={"Authorization": "Bearer coins_nope"})
    response = post(bad, JOIN)
    assert response.status_code == 401 and "error" in response.json()
    assert not Entrant.objects.exists()


def test_a_person_or_a_token_without_bot_play_gets_403(alice, robot, make_token):
    person = Client(headers={"Authorization": f"Bearer {make_token(alice)}"})
    assert post(person, JOIN).status_code == 403
    narrow = make_token(robot, scopes=("challenge:write",))
    response = post(Client(headers={"Authorization": f"Bearer {narrow}"}), JOIN)
    assert response.status_code == 403 and "bot:play" in response.json()["error"]
    assert not Entrant.objects.exists()


def test_a_bad_owner_a_bad_body_or_leaving_when_out_gets_400(robot, api):
    for body in ({"owner": "x" * 41}, {"owner": 7}, {"owner": "bell\u0007"}):
        response = post(api, JOIN, body)
        assert response.status_code == 400 and "error" in response.json(), body
    assert post(api, JOIN, "[1]").status_code == 400
    assert not Entrant.objects.exists()
    response = post(api, LEAVE)
    assert response.status_code == 400 and response.json()["error"]


def test_the_wrong_method_gets_405(api):
    assert api.get(JOIN).status_code == 405
    assert post(api, STATUS).status_code == 405


def test_a_banned_bot_can_no_longer_use_the_api(robot, api):
    post(api, JOIN)
    bots_ban(user_ids=[robot.pk])
    assert post(api, JOIN).status_code == 401  # its tokens stop working
    assert Entrant.objects.get(user=robot).status == Entrant.Status.BANNED
