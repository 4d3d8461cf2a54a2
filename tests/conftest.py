"""Shared fixtures for the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def no_runner_of_its_own(settings):
    """Tests serve tables' schedules themselves (``serve_due``, or the ``table_runner``
    fixture), so no runner starts with the first connection."""
    settings.COINS_TABLE_RUNNER = False
