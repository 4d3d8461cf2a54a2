"""Personal API tokens: stored hashed and shown once; a request is judged by its Bearer
token alone (never a session cookie, no CSRF), with JSON refusals."""

import hashlib

import pytest
from django.core.management import call_command
from django.test import Client

from botapi.models import ApiToken
from botapi.tokens import token_create

pytestmark = pytest.mark.django_db

UPGRADE = "/api/bot/account/upgrade"


def bearer(secret: str) -> Client:
    return Client(headers={"Authorization": f"Bearer {secret}"})


def test_a_token_is_kept_only_as_its_digest(alice):
    new = token_create(user=alice, name="bot", scopes=["bot:play"])
    row = ApiToken.objects.get()
    assert new.secret.startswith("coins_") and len(new.secret) >= 40
    assert row.digest == hashlib.sha256(new.secret.encode()).hexdigest()
    assert new.secret not in {row.digest, row.prefix, row.name}
    assert new.secret.startswith(row.prefix)


def test_a_good_token_is_accepted_and_its_use_noted(alice, make_token):
    response = bearer(make_token(alice)).post(UPGRADE)
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert ApiToken.objects.get().last_used_at is not None


@pytest.mark.parametrize(
    "header",
    ["", "Bearer", "Bearer ", "Basic Y29pbnM6Y29pbnM=", "Bearer coins_wrong", "Bearer nope"],
)
def test_a_missing_or_wrong_token_is_401_in_json(alice, header):
    client = Client(headers={"Authorization": header} if header else {})
    response = client.post(UPGRADE)
    assert response.status_code == 401
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == {"error"}
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_token_is_401(alice, make_token):
    secret = make_token(alice)
    ApiToken.objects.update(revoked_at="2026-01-01T00:00Z")
    assert bearer(secret).post(UPGRADE).status_code == 401


def test_an_inactive_account_s_token_is_401(alice, make_token):
    secret = make_token(alice)
    alice.is_active = False
    alice.save()
    assert bearer(secret).post(UPGRADE).status_code == 401


def test_an_under_scoped_token_is_403(alice, make_token):
    response = bearer(make_token(alice, scopes=["challenge:write"])).post(UPGRADE)
    assert response.status_code == 403
    assert "bot:play" in response.json()["error"]


def test_a_session_cookie_does_not_authenticate_the_api(alice):
    client = Client()
    client.force_login(alice)
    assert client.post(UPGRADE).status_code == 401
    assert client.get("/api/stream/event").status_code == 401


def test_a_token_request_needs_no_csrf_token(alice, make_token):
    client = Client(
        enforce_csrf_checks=True, headers={"Authorization": f"Bearer {make_token(alice)}"}
    )
    assert client.post(UPGRADE).status_code == 200


def test_the_wrong_method_is_405_in_json(alice, make_token):
    response = bearer(make_token(alice)).get(UPGRADE)
    assert response.status_code == 405 and "error" in response.json()


def test_the_command_prints_a_working_token(alice, capsys):
    call_command("api_token", "alice", "--scopes", "bot:play,challenge:write")
    secret = capsys.readouterr().out.strip()
    assert ApiToken.objects.get().scopes == ["bot:play", "challenge:write"]
    assert bearer(secret).post(UPGRADE).status_code == 200


def test_the_command_refuses_unknown_scopes_and_users(alice):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("api_token", "alice", "--scopes", "admin")
    with pytest.raises(CommandError):
        call_command("api_token", "nobody")
    assert not ApiToken.objects.exists()
