"""Logging in and out, changing a forgotten or known password."""

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "tricky-coins-42"
NEW_PASSWORD = "fresh-swords-77"


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", "ana@example.org", PASSWORD)


def test_the_login_page_links_to_signup_and_password_reset(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'href="{reverse("signup")}"' in html
    assert f'href="{reverse("password_reset")}"' in html
    assert 'name="username"' in html and 'name="password"' in html


def test_the_login_page_passes_next_on_to_signup(client):
    html = client.get(reverse("login") + "?next=/rules/").content.decode()
    assert f'href="{reverse("signup")}?next=/rules/"' in html


def test_logging_in_and_out(client, ana):
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.url == reverse("home")
    assert client.session[SESSION_KEY] == str(ana.pk)

    response = client.post(reverse("logout"), follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert SESSION_KEY not in client.session
    assert not response.wsgi_request.user.is_authenticated
    assert any("logged out" in str(m) for m in response.context["messages"])


def test_logging_in_follows_next(client, ana):
    response = client.post(
        reverse("login"), {"username": "ana", "password": PASSWORD, "next": "/rules/"}
    )
    assert response.url == "/rules/"


def test_a_wrong_password_shows_an_error(client, ana):
    response = client.post(reverse("login"), {"username": "ana", "password": "wrong"})
    assert response.status_code == 200
    assert SESSION_KEY not in client.session
    assert "correct username and password" in response.content.decode()


def test_logout_needs_a_post(client, ana):
    client.force_login(ana)
    assert client.get(reverse("logout")).status_code == 405
    assert client.session[SESSION_KEY] == str(ana.pk)


def test_changing_the_password(client, ana):
    client.force_login(ana)
    assert client.get(reverse("password_change")).status_code == 200

    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    assert response.redirect_chain == [(reverse("password_change_done"), 302)]
    assert "Your password has been changed" in response.content.decode()
    ana.refresh_from_db()
    assert ana.check_password(NEW_PASSWORD)
    assert client.session[SESSION_KEY] == str(ana.pk)  # still logged in


def test_changing_the_password_needs_the_old_one(client, ana):
    client.force_login(ana)
    response = client.post(
        reverse("password_change"),
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert "id_old_password_error" in response.content.decode()
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


def test_password_change_requires_login(client):
    response = client.get(reverse("password_change"))
    assert response.url == f"{reverse('login')}?next={reverse('password_change')}"


def test_resetting_a_forgotten_password_by_email(client, ana, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "ana@example.org"}, follow=True)
    assert response.redirect_chain == [(reverse("password_reset_done"), 302)]
    assert "Check your e-mail" in response.content.decode()

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["ana@example.org"]
    assert "Coins password" in mail.subject and "\n" not in mail.subject
    assert "ana" in mail.body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", mail.body).group(1)

    response = client.get(link, follow=True)  # swaps the token for a session and redirects
    assert response.context["validlink"] is True
    set_password_url = response.redirect_chain[-1][0]
    response = client.post(
        set_password_url,
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert response.redirect_chain == [(reverse("password_reset_complete"), 302)]

    response = client.post(reverse("login"), {"username": "ana", "password": NEW_PASSWORD})
    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(ana.pk)

    client.post(reverse("logout"))
    response = client.get(link)  # a used link is dead
    assert "invalid" in response.content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_but_looks_the_same(client, mailoutbox):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.url == reverse("password_reset_done")
    assert mailoutbox == []
