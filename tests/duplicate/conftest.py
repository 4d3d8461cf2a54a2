from datetime import date

import pytest

DAY = date(2040, 3, 1)  # "today" in these tests: later than any game's real finishing time


@pytest.fixture(autouse=True)
def duplicate_settings(settings, monkeypatch):
    """Quick bots and short games, no pauses, and a day that the tests decide."""
    settings.COINS_BOT_PAUSE = 0
    settings.COINS_DUPLICATE_BOT = "heuristic"
    settings.COINS_DUPLICATE_TARGET = 3
    monkeypatch.setattr("duplicate.days.today", lambda: DAY)


@pytest.fixture
def close_the_day(monkeypatch):
    """Move "today" to the next day: ``DAY`` has closed."""

    def close():
        monkeypatch.setattr("duplicate.days.today", lambda: date(2040, 3, 2))

    return close
