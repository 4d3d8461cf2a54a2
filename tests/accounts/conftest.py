"""Fixtures for the accounts tests."""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The real hasher is slow by design; these tests create many passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
