"""/account/tokens/: make a token (shown once), list tokens with their last use, revoke
them; plain forms without JavaScript, the panel alone for htmx."""

import pytest

from botapi.models import ApiToken

pytestmark = pytest.mark.django_db

URL = "/account/tokens/"


def test_the_page_asks_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_new_token_is_shown_once_then_listed_by_its_prefix(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"name": "Robo", "scopes": ["bot:play", "challenge:write"]})
    token = ApiToken.objects.get()
    secret = response.context["new_secret"]
    assert response.status_code == 200 and secret.startswith(token.prefix)
    assert secret in response.content.decode()
    assert response["Cache-Control"] == "no-store"
    again = client.get(URL).content.decode()
    assert secret not in again and token.prefix in again and "Robo" in again
    assert token.scopes == ["bot:play", "challenge:write"]


def test_a_token_needs_a_name_and_a_scope(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"name": "", "scopes": []})
    assert response.status_code == 200 and not response.context["new_secret"]
    assert response.context["form"].errors.keys() == {"name", "scopes"}
    assert not ApiToken.objects.exists()


def test_revoking_stops_the_token_and_only_ones_own(client, alice, bob, make_token):
    mine, theirs = make_token(alice), make_token(bob)
    client.force_login(alice)
    mine_row = ApiToken.objects.get(user=alice)
    their_row = ApiToken.objects.get(user=bob)
    client.post(URL, {"revoke": their_row.pk})
    response = client.post(URL, {"revoke": mine_row.pk})
    assert response.status_code == 302
    mine_row.refresh_from_db()
    their_row.refresh_from_db()
    assert mine_row.revoked_at is not None and their_row.revoked_at is None
    assert "revoked" in client.get(URL).content.decode()
    headers = {"Authorization": f"Bearer {mine}"}
    assert client.post("/api/bot/account/upgrade", headers=headers).status_code == 401
    assert theirs


def test_htmx_gets_the_panel_alone(client, alice):
    client.force_login(alice)
    response = client.post(
        URL, {"name": "Robo", "scopes": ["bot:play"]}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="tokens-panel"') and "<html" not in html
