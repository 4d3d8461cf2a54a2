"""Abuse limits on accounts, one request at a time: log-in lock-out per account AND address
(the admin's log-in too), the per-address limit over every name, sign-ups per address,
password changes; each refusal says why, and is counted. Bursts: test_bursts.py."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.cache import cache

from accounts import throttles

from .helpers import CountingMD5PasswordHasher, throttled_count

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counted_hashes")]

PASSWORD = "a-long-Passw0rd!"


@pytest.fixture
def dora():
    return get_user_model().objects.create_user("dora", "dora@example.com", PASSWORD)


def log_in(client, username, password, address="10.0.0.1", url="/accounts/login/"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_five_wrong_passwords_pause_that_account_from_that_address_only(client, dora):
    for _ in range(4):
        assert log_in(client, "dora", "wrong").status_code == 200  # the form again
    refusals = throttled_count("login")
    locked = log_in(client, "dora", "wrong")
    assert locked.status_code == 429 and "Log-in paused" in locked.content.decode()
    assert "5 wrong passwords for this account from your address" in locked.content.decode()
    assert locked["Retry-After"] == "900"
    assert log_in(client, "dora", PASSWORD).status_code == 429  # the right one too, from here
    assert throttled_count("login") == refusals + 2
    assert SESSION_KEY not in client.session

    elsewhere = log_in(client, "dora", PASSWORD, address="10.9.9.9")  # the person, elsewhere
    assert elsewhere.status_code == 302 and client.session[SESSION_KEY] == str(dora.pk)


def test_a_refused_log_in_is_neither_hashed_nor_recorded(client, dora):
    for _ in range(5):
        log_in(client, "dora", "wrong")
    hashes = CountingMD5PasswordHasher.hashes
    recorded = AccessAttempt.objects.get().failures_since_start
    for _ in range(3):
        assert log_in(client, "dora", "wrong").status_code == 429
    assert CountingMD5PasswordHasher.hashes == hashes
    assert AccessAttempt.objects.get().failures_since_start == recorded == 5


def test_one_address_guessing_many_names_is_paused_after_twenty(client, dora):
    for n in range(20):
        assert log_in(client, f"nobody{n}", "wrong", address="10.0.0.7").status_code == 200
    refusals = throttled_count("login-address")
    paused = log_in(client, "dora", PASSWORD, address="10.0.0.7")
    assert paused.status_code == 429
    assert "20 wrong passwords from your address" in paused.content.decode()
    assert throttled_count("login-address") == refusals + 1
    assert log_in(client, "dora", PASSWORD, address="10.0.0.8").status_code == 302


def test_an_office_behind_one_address_is_not_paused_by_one_person(client, dora):
    get_user_model().objects.create_user("eve", password=PASSWORD)
    for _ in range(5):
        log_in(client, "eve", "wrong", address="10.3.3.3")  # one person forgets theirs
    assert log_in(client, "eve", PASSWORD, address="10.3.3.3").status_code == 429
    assert log_in(client, "dora", PASSWORD, address="10.3.3.3").status_code == 302


def test_the_admin_log_in_is_paused_the_same_way(client, dora):
    dora.is_staff = True
    dora.save()
    for _ in range(5):
        log_in(client, "dora", "wrong", url="/admin/login/")
    assert log_in(client, "dora", PASSWORD, url="/admin/login/").status_code == 429
    assert log_in(client, "dora", PASSWORD, url="/accounts/login/").status_code == 429
    response = log_in(client, "dora", PASSWORD, address="10.9.9.9", url="/admin/login/")
    assert response.status_code == 302 and client.session[SESSION_KEY] == str(dora.pk)


def test_a_good_log_in_clears_the_failures_and_gives_the_address_slot_back(client, dora):
    for _ in range(4):
        log_in(client, "dora", "wrong")
    assert log_in(client, "dora", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        log_in(client, "dora", "wrong")
    assert log_in(client, "dora", PASSWORD).status_code == 302
    client.logout()
    # 8 failures and 2 successes from 10.0.0.1: the address has 12 of its 20 left.
    for n in range(12):
        assert log_in(client, f"nobody{n}", "wrong").status_code == 200
    assert log_in(client, "nobody", "wrong").status_code == 429


def test_axes_uses_the_same_address_as_the_limits(client, dora):
    log_in(client, "dora", "wrong", address="10.4.4.4")
    assert AccessAttempt.objects.get().ip_address == "10.4.4.4"


def test_with_the_cache_down_the_database_decides_and_nobody_else_is_locked(
    client, dora, monkeypatch
):
    def unreachable(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "add", unreachable)
    monkeypatch.setattr(cache, "incr", unreachable)
    for _ in range(4):
        assert log_in(client, "dora", "wrong").status_code == 200
    assert log_in(client, "dora", "wrong").status_code == 429  # axes's records
    assert log_in(client, "dora", PASSWORD).status_code == 429
    assert log_in(client, "dora", PASSWORD, address="10.9.9.9").status_code == 302
    client.logout()
    for n in range(15):
        log_in(client, f"nobody{n}", "wrong", address="10.5.5.5")
    get_user_model().objects.create_user("finn", password=PASSWORD)
    assert log_in(client, "finn", PASSWORD, address="10.5.5.5").status_code == 302
    client.logout()
    for n in range(5):
        log_in(client, f"other{n}", "wrong", address="10.5.5.5")
    assert log_in(client, "finn", PASSWORD, address="10.5.5.5").status_code == 429  # 20


def test_wrong_current_passwords_pause_the_password_change(client, dora):
    client.force_login(dora)
    data = {
        "old_password": "wrong",
        "new_password1": "n3w-Passw0rd!",
        "new_password2": "n3w-Passw0rd!",
    }
    for _ in range(5):
        assert client.post("/accounts/password/change/", data).status_code == 200
    hashes = CountingMD5PasswordHasher.hashes
    refused = client.post("/accounts/password/change/", {**data, "old_password": PASSWORD})
    assert refused.status_code == 429
    assert "Too many attempts to change your password" in refused.content.decode()
    assert CountingMD5PasswordHasher.hashes == hashes  # refused before any hash
    dora.refresh_from_db()
    assert dora.check_password(PASSWORD)


def test_a_changed_password_gives_its_slots_back(client, dora):
    client.force_login(dora)
    new = "n3w-Passw0rd!"
    data = {"old_password": "wrong", "new_password1": new, "new_password2": new}
    for _ in range(4):
        client.post("/accounts/password/change/", data)
    response = client.post("/accounts/password/change/", {**data, "old_password": PASSWORD})
    assert response.status_code == 302
    for _ in range(4):
        assert client.post("/accounts/password/change/", data).status_code == 200


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
    refusals = throttled_count("signup")
    hashes = CountingMD5PasswordHasher.hashes
    refused = sign_up(99)
    assert refused.status_code == 429 and "Too many accounts" in refused.content.decode()
    assert refused["Retry-After"] == "3600"
    assert CountingMD5PasswordHasher.hashes == hashes
    assert throttled_count("signup") == refusals + 1
    assert not get_user_model().objects.filter(username="new99").exists()
    assert sign_up(100, address="10.1.1.2").status_code == 302


def test_a_sign_up_hashes_the_password_once(client):
    client.post(
        "/accounts/signup/", {"username": "gus", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert CountingMD5PasswordHasher.hashes == 1
    assert client.session[SESSION_KEY] == str(get_user_model().objects.get(username="gus").pk)


def test_an_invalid_sign_up_takes_no_slot(client):
    for _ in range(8):
        client.post("/accounts/signup/", {"username": "hal", "password1": "a", "password2": "b"})
    for n in range(5):
        client.logout()
        data = {"username": f"ok{n}", "password1": PASSWORD, "password2": PASSWORD}
        assert client.post("/accounts/signup/", data).status_code == 302
