"""Abuse limits on accounts: log-in lockout (django-axes) per account and per address, the
admin's log-in too; sign-ups and password-reset mails per address. Each refusal says why."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from accounts import throttles

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-Passw0rd!"


@pytest.fixture(autouse=True)
def fresh_counters(settings):
    settings.COINS_SIGNUPS_PER_HOUR = 5
    settings.COINS_RESETS_PER_HOUR_FROM_ADDRESS = 10
    settings.COINS_RESETS_PER_HOUR_TO_EMAIL = 3
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dora():
    return get_user_model().objects.create_user("dora", "dora@example.com", PASSWORD)


def log_in(client, username, password, address="10.0.0.1", url="/accounts/login/"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_lock_the_account_even_against_the_right_one(client, dora):
    for _ in range(4):
        assert log_in(client, "dora", "wrong").status_code == 200  # the form again
    locked = log_in(client, "dora", "wrong")
    assert locked.status_code == 429 and "Log-in paused" in locked.content.decode()
    right = log_in(client, "dora", PASSWORD, address="10.9.9.9")  # another address too
    assert right.status_code == 429 and "_auth_user_id" not in client.session


def test_one_address_guessing_many_accounts_is_locked_out(client, dora):
    for n in range(5):
        log_in(client, f"nobody{n}", "wrong", address="10.0.0.7")
    assert log_in(client, "dora", PASSWORD, address="10.0.0.7").status_code == 429
    assert log_in(client, "dora", PASSWORD, address="10.0.0.8").status_code == 302


def test_the_admin_log_in_is_locked_out_too(client, dora):
    for _ in range(5):
        log_in(client, "dora", "wrong", url="/admin/login/")
    assert log_in(client, "dora", PASSWORD, url="/admin/login/").status_code == 429


def test_a_good_log_in_clears_the_failures(client, dora):
    for _ in range(4):
        log_in(client, "dora", "wrong")
    assert log_in(client, "dora", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        log_in(client, "dora", "wrong")
    assert log_in(client, "dora", PASSWORD).status_code == 302


def test_sign_ups_from_one_address_are_limited(client):
    def sign_up(n, address="10.1.1.1"):
        client.logout()
        return client.post(
            "/accounts/signup/",
            {"username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR=address,
        )

    for n in range(throttles.limit("SIGNUPS_PER_HOUR")):
        assert sign_up(n).status_code == 302
    refused = sign_up(99)
    assert refused.status_code == 429 and "Too many accounts" in refused.content.decode()
    assert not get_user_model().objects.filter(username="new99").exists()
    assert sign_up(100, address="10.1.1.2").status_code == 302


def test_reset_mails_are_limited_per_e_mail_and_per_address(client, dora):
    def ask(email="dora@example.com", address="10.2.2.2"):
        return client.post("/accounts/password/reset/", {"email": email}, REMOTE_ADDR=address)

    for _ in range(throttles.limit("RESETS_PER_HOUR_TO_EMAIL") + 2):
        assert ask(address="10.2.2.3").status_code == 302  # the same page either way
    assert len(mail.outbox) == throttles.limit("RESETS_PER_HOUR_TO_EMAIL")
    for n in range(
        throttles.limit("RESETS_PER_HOUR_FROM_ADDRESS")
        - throttles.limit("RESETS_PER_HOUR_TO_EMAIL")
        - 2
    ):
        ask(email=f"x{n}@example.com", address="10.2.2.3")
    refused = ask(email="other@example.com", address="10.2.2.3")
    assert refused.status_code == 429 and "Too many reset requests" in refused.content.decode()
