"""Password hashing is bounded per process: Django's PBKDF2 unchanged (every stored hash
still verifies), at most COINS_HASHING_SLOTS at once, a short queue, then a clear "busy"
page (503, Retry-After) that gives back the limit slots the request took."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher, check_password, make_password
from django.core.cache import cache

from accounts.hashers import BoundedPBKDF2PasswordHasher, HashingBusy, HashingLimiter, limiter

from .helpers import FAST_BOUNDED_HASHER, throttled_count

PASSWORD = "a-long-Passw0rd!"


def test_the_bounded_hasher_is_djangos_pbkdf2_so_every_stored_hash_verifies(settings):
    settings.PASSWORD_HASHERS = ["accounts.hashers.BoundedPBKDF2PasswordHasher"]
    bounded = BoundedPBKDF2PasswordHasher()
    assert bounded.algorithm == "pbkdf2_sha256"
    assert bounded.iterations == PBKDF2PasswordHasher.iterations
    salt = bounded.salt()
    stored = PBKDF2PasswordHasher().encode(PASSWORD, salt)  # as made before this hasher
    assert check_password(PASSWORD, stored) and not check_password("wrong", stored)
    assert make_password(PASSWORD, salt) == stored
    assert not bounded.must_update(stored)


def test_the_production_settings_use_the_bounded_hasher():
    from coins_site import settings as production

    assert production.PASSWORD_HASHERS == ["accounts.hashers.BoundedPBKDF2PasswordHasher"]


def test_a_full_limiter_refuses_at_once_and_a_queued_hash_waits_its_turn():
    gate = HashingLimiter(slots=1, queue=1, wait=30)
    holding, release, waited = threading.Event(), threading.Event(), []

    def hold():
        with gate.slot():
            holding.set()
            release.wait()

    def queue():
        with gate.slot():
            waited.append(True)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait()
    queued = threading.Thread(target=queue)
    queued.start()
    wait_for(lambda: not gate.admission._value)  # the queued one took the last place
    with pytest.raises(HashingBusy), gate.slot():  # slot and queue full: refused at once
        pass
    release.set()
    holder.join()
    queued.join()
    assert waited == [True]


def wait_for(condition) -> None:
    """Until ``condition()`` holds: the other threads have reached the state it names."""
    while not condition():
        threading.Event().wait(0.001)


def test_one_address_holds_at_most_its_share_of_the_places():
    gate = HashingLimiter(slots=1, queue=4, wait=30, per_address=2)
    inside, release, served = threading.Event(), threading.Event(), []

    def hold():
        with gate.slot("10.0.0.1"):
            inside.set()
            release.wait()

    def wait_turn(address):
        with gate.slot(address):
            served.append(address)

    threads = [threading.Thread(target=hold)]
    threads[0].start()
    inside.wait()
    threads.append(threading.Thread(target=wait_turn, args=("10.0.0.1",)))
    threads[-1].start()
    wait_for(lambda: gate.holders["10.0.0.1"] == 2)
    with pytest.raises(HashingBusy), gate.slot("10.0.0.1"):  # its share is used
        pass
    threads.append(threading.Thread(target=wait_turn, args=("10.0.0.2",)))
    threads[-1].start()  # another address still finds a place
    wait_for(lambda: gate.holders.get("10.0.0.2") == 1)
    release.set()
    for thread in threads:
        thread.join()
    assert sorted(served) == ["10.0.0.1", "10.0.0.2"]
    assert not gate.holders


def test_a_hash_that_waits_too_long_is_refused():
    gate = HashingLimiter(slots=1, queue=4, wait=0)
    with gate.slot(), pytest.raises(HashingBusy), gate.slot():
        pass


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "The server is busy checking other passwords"),
        ("es", "El servidor está ocupado"),
    ],
)
def test_a_log_in_while_hashing_is_full_gets_the_busy_page_and_keeps_its_slots(
    client, settings, language, text
):
    settings.PASSWORD_HASHERS = [FAST_BOUNDED_HASHER]
    settings.COINS_HASHING_SLOTS, settings.COINS_HASHING_QUEUE = 1, 0
    get_user_model().objects.create_user("ida", password=PASSWORD)
    cache.clear()
    refusals = throttled_count("hashing")
    data = {"username": "ida", "password": "wrong"}
    with limiter().slot():  # every hashing slot of this process is taken
        busy = client.post("/accounts/login/", data, headers={"accept-language": language})
    assert busy.status_code == 503 and busy["Retry-After"] == "2"
    assert text in busy.content.decode()
    assert throttled_count("hashing") == refusals + 1
    for _ in range(4):  # the busy answer did not use one of the five failures
        assert client.post("/accounts/login/", data).status_code == 200
    assert client.post("/accounts/login/", {**data, "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_a_sign_up_while_hashing_is_full_creates_nothing_and_keeps_its_slot(client, settings):
    settings.PASSWORD_HASHERS = [FAST_BOUNDED_HASHER]
    settings.COINS_HASHING_SLOTS, settings.COINS_HASHING_QUEUE = 1, 0
    settings.COINS_SIGNUPS_PER_HOUR = 1
    cache.clear()
    data = {"username": "jon", "password1": PASSWORD, "password2": PASSWORD}
    with limiter().slot():
        assert client.post("/accounts/signup/", data).status_code == 503
    assert not get_user_model().objects.exists()
    assert client.post("/accounts/signup/", data).status_code == 302  # the slot came back
