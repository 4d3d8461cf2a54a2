"""Fixtures for the accounts tests."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow by design; these tests create many passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def counted_hashes(settings):
    """The limits as the site has them, and a hasher that counts the hashes it makes."""
    from django.core.cache import cache

    from .helpers import COUNTING_HASHER, CountingMD5PasswordHasher

    settings.COINS_SIGNUPS_PER_HOUR = 5
    settings.COINS_LOGIN_FAILURES_PER_ADDRESS = 20
    settings.PASSWORD_HASHERS = [COUNTING_HASHER]
    CountingMD5PasswordHasher.reset()
    cache.clear()
    yield
    cache.clear()
