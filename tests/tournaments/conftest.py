from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.models import Tournament


@pytest.fixture(autouse=True)
def tournament_settings(settings):
    """Quick bots, no pauses, bots for leftovers after 30 s (the tests move the clock)."""
    settings.COINS_BOT_PAUSE = 0
    settings.COINS_TRICK_PAUSE = 0
    settings.COINS_TOURNAMENT_BOT = "heuristic"
    settings.COINS_ARENA_BOTS_AFTER = 30


@pytest.fixture
def people(make_user):
    def make(n: int, prefix: str = "p"):
        return [make_user(f"{prefix}{i}") for i in range(n)]

    return make


@pytest.fixture
def staff(client, django_user_model):
    """A client signed in as a superuser."""
    boss = django_user_model.objects.create_superuser("boss", password="pw-Coins-123")
    client.force_login(boss)
    return client


@pytest.fixture
def make_tournament():
    def make(kind="arena", **fields):
        now = timezone.now()
        defaults = {
            "name": f"Test {kind}",
            "kind": kind,
            "starts_at": now - timedelta(seconds=1),
            "target": 2,
            "clock": None,
            "is_rated": False,
        }
        if kind == "arena":
            defaults["ends_at"] = now + timedelta(hours=1)
        else:
            defaults["rounds"] = 2
        defaults.update(fields)
        return Tournament.objects.create(**defaults)

    return make


# Socket tests: a fresh channel layer and database pool per test, as for the tables' sockets;
# push tests: a site with Web Push keys and a push service that records what it receives.
from tests.games.conftest import fresh_channel_layer, fresh_database_pool  # noqa: E402, F401
from tests.notifications.test_turn_notices import push_service, vapid  # noqa: E402, F401
from tests.redis_server import private_redis  # noqa: E402, F401
