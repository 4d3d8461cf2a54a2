"""Signing up: the account, the profile, the automatic login and the form's errors."""

import pytest
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

from accounts.models import Profile

pytestmark = pytest.mark.django_db

PASSWORD = "tricky-coins-42"


def signup_data(**overrides):
    return {"username": "ana", "email": "", "password1": PASSWORD, "password2": PASSWORD} | (
        overrides
    )


def test_the_signup_page_has_the_stable_fields(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in html
    assert 'href="/static/css/accounts.css"' in html
    assert reverse("signup") == "/accounts/signup/"


def test_signing_up_creates_the_user_and_profile_logs_in_and_welcomes(client, django_user_model):
    response = client.post(reverse("signup"), signup_data(email="ana@example.org"), follow=True)

    user = django_user_model.objects.get(username="ana")
    assert user.email == "ana@example.org"
    assert user.check_password(PASSWORD)
    assert Profile.objects.filter(user=user).exists()
    assert client.session[SESSION_KEY] == str(user.pk)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert response.wsgi_request.user == user
    messages = [str(m) for m in response.context["messages"]]
    assert any("Welcome to Coins, ana" in m for m in messages)


def test_the_email_address_is_optional(client, django_user_model):
    response = client.post(reverse("signup"), signup_data())
    assert response.status_code == 302
    assert django_user_model.objects.get(username="ana").email == ""


def test_signup_follows_a_safe_next_and_ignores_an_unsafe_one(client, django_user_model):
    response = client.post(reverse("signup"), signup_data(next="/rules/"))
    assert response.url == "/rules/"

    client.post(reverse("logout"))
    response = client.post(
        reverse("signup"), signup_data(username="bea", next="https://evil.example/")
    )
    assert response.url == reverse("home")
    assert django_user_model.objects.filter(username="bea").exists()


def test_the_next_parameter_is_carried_into_the_form(client):
    html = client.get(reverse("signup") + "?next=/rules/").content.decode()
    assert 'name="next" value="/rules/"' in html


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"password2": "different-coins-42"}, "password2", "match"),
        ({"password1": "Ab1!x", "password2": "Ab1!x"}, "password2", "too short"),
        ({"password1": "12345678901", "password2": "12345678901"}, "password2", "numeric"),
        ({"username": ""}, "username", "required"),
        ({"username": "no spaces"}, "username", "valid username"),
        ({"email": "not-an-address"}, "email", "valid email"),
    ],
)
def test_invalid_signups_show_the_error_and_create_nobody(
    client, django_user_model, overrides, field, message
):
    response = client.post(reverse("signup"), signup_data(**overrides))

    assert response.status_code == 200
    assert django_user_model.objects.count() == 0
    assert SESSION_KEY not in client.session
    errors = " ".join(response.context["form"].errors[field])
    assert message in errors
    html = response.content.decode()
    assert 'class="errorlist"' in html and f'id="id_{field}_error"' in html
    assert 'aria-invalid="true"' in html


def test_a_taken_username_is_refused_whatever_its_case(client, django_user_model):
    django_user_model.objects.create_user("Ana", password=PASSWORD)

    response = client.post(reverse("signup"), signup_data(username="ana"))

    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert django_user_model.objects.count() == 1


def test_logged_in_users_are_sent_home_from_signup(client, django_user_model):
    user = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(user)

    assert client.get(reverse("signup")).url == reverse("home")
    response = client.post(reverse("signup"), signup_data(username="other"))
    assert response.url == reverse("home")
    assert not django_user_model.objects.filter(username="other").exists()
