import pytest


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.COINS_BOT_PAUSE = 0
