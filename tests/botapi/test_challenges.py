"""Challenges through the API: every status code of sending, accepting, declining and
canceling one; the game an accept makes; expiry; the event stream's challenge lines."""

from datetime import timedelta

import pytest
from django.test import Client

from botapi.challenges import challenge_data
from botapi.models import Challenge
from botapi.news import challenge_news
from games.models import Game

from .conftest import make_bot_account

pytestmark = pytest.mark.django_db
BOTH = ("bot:play", "challenge:write")


def bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


@pytest.fixture
def challenger(robot, make_token):
    return bearer(make_token(robot, BOTH))


@pytest.fixture
def rival(make_user):
    return make_bot_account(make_user("rival"))


@pytest.fixture
def rival_api(rival, make_token):
    return bearer(make_token(rival, BOTH))


def send(api, username="rival", **body):
    data = {"target": 5, "rated": False, "seats": ["challenged", "easy"], **body}
    return api.post(f"/api/challenge/{username}", data, content_type="application/json")


def sent(api, username="rival", **body) -> Challenge:
    response = send(api, username, **body)
    assert response.status_code == 201, response.content
    return Challenge.objects.get(pk=int(response.json()["id"]))


def test_a_challenge_is_made_and_answered_with_its_shape(challenger, rival, robot):
    response = send(challenger, rated=True)
    assert response.status_code == 201
    data = response.json()
    assert data == {
        "id": data["id"],
        "challenger": "robot",
        "challenged": "rival",
        "target": 5,
        "rated": True,
        "clock": 30,
        "seats": ["challenged", "easy"],
        "status": "created",
        "game": None,
    }


@pytest.mark.parametrize(
    "body",
    [
        {"target": 0},
        {"rated": "yes"},
        {"seats": ["easy", "easy"]},
        {"seats": ["challenged", "challenged"]},
        {"seats": ["challenged", "open"]},
        {"seats": ["challenged"]},
        {"seats": "challenged"},
        {"clock": 7},
    ],
)
def test_bad_options_are_a_400_and_nothing_is_made(challenger, rival, body):
    response = send(challenger, **body)
    assert response.status_code == 400
    assert response.json().keys() == {"error"}
    assert not Challenge.objects.exists()


def test_challenging_nobody_or_oneself_is_refused(challenger, rival, make_user):
    assert send(challenger, "nobody").status_code == 404
    gone = make_user("gone")
    gone.is_active = False
    gone.save()
    assert send(challenger, "gone").status_code == 404
    assert send(challenger, "robot").status_code == 400
    assert not Challenge.objects.exists()


def test_the_door_refuses_as_elsewhere(robot, rival, make_token):
    assert send(Client()).status_code == 401
    assert send(bearer("coins_wrong")).status_code == 401
    assert send(bearer(make_token(robot, ("bot:play",)))).status_code == 403
    assert bearer(make_token(robot, BOTH)).get("/api/challenge/rival").status_code == 405


def test_a_person_may_challenge_a_bot_with_a_token(alice, rival, make_token):
    challenge = sent(bearer(make_token(alice, ("challenge:write",))))
    assert (challenge.challenger, challenge.challenged) == (alice, rival)


def test_past_the_limit_a_429(challenger, rival, settings):
    settings.COINS_API_CHALLENGES = (2, 10)
    assert [send(challenger).status_code for _n in range(3)] == [201, 201, 429]
    refusal = send(challenger).json()
    assert refusal["retry_after"] == settings.COINS_API_CHALLENGE_WINDOW


def test_accept_makes_the_game_with_the_agreed_seats(challenger, rival_api, robot, rival):
    challenge = sent(challenger, seats=["easy", "challenged"], rated=True)
    response = rival_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert response.status_code == 200
    game = Game.objects.get(pk=int(response.json()["game"]["id"]))
    seats = {s.number: (s.user, s.bot) for s in game.seats.all()}
    assert seats[0] == (robot, "") and seats[2] == (rival, "")
    assert seats[1][0] is None and seats[1][1]
    assert game.status == Game.Status.IN_PROGRESS and game.is_rated and game.target == 5
    challenge.refresh_from_db()
    assert (challenge.status, challenge.game) == ("accepted", game)
    again = rival_api.post(f"/api/challenge/{challenge.pk}/accept")
    assert again.status_code == 409
    assert Game.objects.count() == 1


def test_only_the_challenged_answers_and_only_the_challenger_cancels(
    challenger, rival_api, robot, make_user, make_token
):
    challenge = sent(challenger)
    stranger = bearer(make_token(make_bot_account(make_user("stranger")), BOTH))
    for action in ("accept", "decline", "cancel"):
        assert stranger.post(f"/api/challenge/{challenge.pk}/{action}").status_code == 404
    assert challenger.post(f"/api/challenge/{challenge.pk}/accept").status_code == 404
    assert rival_api.post(f"/api/challenge/{challenge.pk}/cancel").status_code == 404
    assert rival_api.post("/api/challenge/999999/accept").status_code == 404
    challenge.refresh_from_db()
    assert challenge.status == "created"


def test_decline_and_cancel_close_a_challenge(challenger, rival_api):
    first, second = sent(challenger), sent(challenger)
    assert rival_api.post(f"/api/challenge/{first.pk}/decline").json() == {"ok": True}
    assert challenger.post(f"/api/challenge/{second.pk}/cancel").json() == {"ok": True}
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("declined", "canceled")
    assert rival_api.post(f"/api/challenge/{first.pk}/accept").status_code == 409
    assert rival_api.post(f"/api/challenge/{second.pk}/accept").status_code == 409
    assert challenger.post(f"/api/challenge/{first.pk}/cancel").status_code == 409
    assert not Game.objects.exists()


def age(challenge: Challenge, seconds: int) -> None:
    Challenge.objects.filter(pk=challenge.pk).update(
        created_at=challenge.created_at - timedelta(seconds=seconds)
    )


def test_a_challenge_expires(challenger, rival_api, settings):
    nearly, expired = sent(challenger), sent(challenger)
    age(nearly, settings.COINS_API_CHALLENGE_TTL - 5)
    age(expired, settings.COINS_API_CHALLENGE_TTL + 1)
    response = rival_api.post(f"/api/challenge/{expired.pk}/accept")
    assert response.status_code == 409
    assert "expired" in response.json()["error"]
    assert rival_api.post(f"/api/challenge/{expired.pk}/decline").status_code == 409
    assert rival_api.post(f"/api/challenge/{nearly.pk}/accept").status_code == 200
    assert Game.objects.count() == 1


def test_the_event_stream_shows_open_challenges_then_their_ends(
    challenger, rival_api, robot, rival, alice, make_token, settings
):
    outgoing = sent(challenger)
    incoming = sent(bearer(make_token(alice, ("challenge:write",))), "robot")
    since = min(outgoing.created_at, incoming.created_at)
    lines, known = challenge_news(robot, {}, since)
    assert lines == [
        {"type": "challenge", "challenge": challenge_data(outgoing)},
        {"type": "challenge", "challenge": challenge_data(incoming)},
    ]
    assert challenge_news(robot, known, since)[0] == []
    rival_api.post(f"/api/challenge/{outgoing.pk}/decline")
    lines, known = challenge_news(robot, known, since)
    assert [(d["type"], d["challenge"]["id"]) for d in lines] == [
        ("challengeDeclined", str(outgoing.pk))
    ]
    assert lines[0]["challenge"]["status"] == "declined"
    age(incoming, settings.COINS_API_CHALLENGE_TTL + 1)
    lines, known = challenge_news(robot, known, since)
    assert [(d["type"], d["challenge"]["status"]) for d in lines] == [
        ("challengeCanceled", "expired")
    ]
    canceled = sent(challenger)
    lines, known = challenge_news(robot, known, since)
    assert [d["type"] for d in lines] == ["challenge"]
    challenger.post(f"/api/challenge/{canceled.pk}/cancel")
    lines, _known = challenge_news(robot, known, since)
    assert [d["type"] for d in lines] == ["challengeCanceled"]
    assert challenge_news(rival, {canceled.pk: "created"}, since)[0][0]["type"] == (
        "challengeCanceled"
    )


def test_a_form_body_is_a_400_not_a_crash(challenger, rival):
    response = challenger.post("/api/challenge/rival", {"target": "5"})
    assert response.status_code == 400
    assert not Challenge.objects.exists()
