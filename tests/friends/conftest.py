import pytest


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    settings.COINS_BOT_PAUSE = 0


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, email: str = ""):
        return django_user_model.objects.create_user(
            username=username, email=email, password="pw-Coins-123"
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")
