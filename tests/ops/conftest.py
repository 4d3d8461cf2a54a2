import pytest


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.COINS_BOT_PAUSE = 0


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="pw-Coins-123")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-Coins-123")
