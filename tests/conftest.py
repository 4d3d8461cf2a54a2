"""Shared fixtures for the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def rate_at_once(settings):
    """Rate finished games inside the move that ends them, so tests can look at once."""
    settings.COINS_RATE_IN_BACKGROUND = False
