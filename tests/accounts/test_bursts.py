"""Limits that cannot be raced: 50 requests at once, each from a client of its own in a
thread of its own, against PostgreSQL. No limit lets more through than it allows, and the
account's owner, logging in from elsewhere, is never locked out by someone else's burst."""

import itertools
import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.db.models import Sum
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts.models import Profile

from .helpers import CountingMD5PasswordHasher, at_once, post_from

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("counted_hashes"),
]

PASSWORD = "a-long-Passw0rd!"
BURST = 50


@pytest.fixture
def dora():
    user = get_user_model().objects.create_user("dora", "dora@example.com", PASSWORD)
    CountingMD5PasswordHasher.reset()  # count from here: her password was hashed once
    return user


def failures_recorded(**filters) -> int:
    total = AccessAttempt.objects.filter(**filters).aggregate(n=Sum("failures_since_start"))["n"]
    return total or 0


def statuses(responses) -> list[int]:
    assert not [r for r in responses if isinstance(r, Exception)], responses
    return [r.status_code for r in responses]


def test_fifty_wrong_passwords_at_once_hash_at_most_five_and_the_owner_logs_in(dora):
    login = "/accounts/login/"
    wrong = {"username": "dora", "password": "wrong"}
    owner = Client()
    calls = [lambda: post_from("10.0.0.1", login, wrong) for _ in range(BURST)]
    calls.append(lambda: post_from("10.9.9.9", login, {**wrong, "password": PASSWORD}, owner))

    answers = statuses(at_once(calls))

    assert answers[-1] == 302 and owner.session[SESSION_KEY] == str(dora.pk)  # during
    assert set(answers[:-1]) <= {200, 429} and answers[:-1].count(429) >= BURST - 5
    assert CountingMD5PasswordHasher.hashes <= 5 + 1  # five guesses, and the owner's log-in
    assert failures_recorded(username="dora", ip_address="10.0.0.1") <= 5
    right = {**wrong, "password": PASSWORD}
    assert post_from("10.0.0.1", login, right).status_code == 429  # the burst's address
    assert post_from("10.8.8.8", login, right).status_code == 302  # and after


def test_fifty_names_guessed_at_once_from_one_address_hash_at_most_twenty(dora):
    login = "/accounts/login/"
    calls = [
        (lambda n=n: post_from("10.0.0.7", login, {"username": f"nobody{n}", "password": "x"}))
        for n in range(BURST)
    ]

    answers = statuses(at_once(calls))

    assert answers.count(429) >= BURST - 20
    assert CountingMD5PasswordHasher.hashes <= 20  # Django's dummy hash for unknown names
    assert failures_recorded(ip_address="10.0.0.7") <= 20
    right = {"username": "dora", "password": PASSWORD}
    assert post_from("10.0.0.7", login, right).status_code == 429
    assert post_from("10.0.0.8", login, right).status_code == 302


def test_fifty_sign_ups_at_once_from_one_address_make_five_accounts():
    def sign_up(n):
        data = {"username": f"new{n}", "password1": PASSWORD, "password2": PASSWORD}
        return post_from("10.1.1.1", "/accounts/signup/", data)

    responses = at_once([(lambda n=n: sign_up(n)) for n in range(BURST)])

    answers = statuses(responses)
    assert get_user_model().objects.count() == 5
    assert answers.count(302) == 5 and answers.count(429) == BURST - 5
    assert CountingMD5PasswordHasher.hashes == 5
    refused = next(r for r in responses if r.status_code == 429)
    assert "Too many accounts were created from your address" in refused.content.decode()


def lookalikes_of_carol() -> list[str]:
    letters = ["cC", "aA", "rR", "oO0", "lLI1"]
    return ["".join(chars) for chars in itertools.product(*letters)][:BURST]


def test_fifty_lookalike_sign_ups_at_once_make_one_account_and_clear_errors(settings):
    settings.COINS_SIGNUPS_PER_HOUR = 1000
    names = lookalikes_of_carol()
    assert len(set(names)) == BURST

    def sign_up(n, name):
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        return post_from(f"10.2.0.{n}", "/accounts/signup/", data)

    responses = at_once([(lambda n=n, name=name: sign_up(n, name)) for n, name in enumerate(names)])

    answers = statuses(responses)
    assert answers.count(302) == 1 and answers.count(200) == BURST - 1  # never a 500
    assert get_user_model().objects.count() == 1
    assert Profile.objects.get().username_skeleton == "carol"
    for response in responses:
        if response.status_code == 200:
            assert re.search(
                r"looks too much like another player|already exists", response.content.decode()
            )


def test_fifty_wrong_current_passwords_at_once_hash_at_most_five(dora):
    clients = []
    for _ in range(BURST):
        client = Client()
        client.force_login(dora)
        clients.append(client)
    new = "n3w-Passw0rd!"
    data = {"old_password": "wrong", "new_password1": new, "new_password2": new}

    answers = statuses(
        at_once(
            [
                (lambda c=c: post_from("10.0.0.1", "/accounts/password/change/", data, c))
                for c in clients
            ]
        )
    )

    assert answers.count(429) >= BURST - 5
    assert CountingMD5PasswordHasher.hashes <= 5


def test_fifty_new_passwords_at_once_through_one_reset_link_hash_at_most_five(dora):
    uid = urlsafe_base64_encode(force_bytes(dora.pk))
    token = default_token_generator.make_token(dora)
    clients = []
    for _ in range(BURST):
        client = Client()
        set_password = client.get(f"/accounts/reset/{uid}/{token}/")["Location"]
        clients.append((client, set_password))
    new = "n3w-Passw0rd!"
    data = {"new_password1": new, "new_password2": new}

    answers = statuses(
        at_once([(lambda c=c, url=url: post_from("10.0.0.1", url, data, c)) for c, url in clients])
    )

    assert CountingMD5PasswordHasher.hashes <= 5
    assert answers.count(302) <= 5 and answers.count(302) >= 1
    dora.refresh_from_db()
    assert dora.check_password(new)
