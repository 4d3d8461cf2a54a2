"""/metrics for Prometheus: this process's figures, only for allowed addresses or the
token; cards played and the runners' lag counted where they happen."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from games.engine import CARD_CODES
from games.models import Game, Play
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from games.table.runner import claim_and_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(HTTP_HOST="localhost")


def test_loopback_reads_the_sites_and_the_process_metrics(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.content.decode()
    for name in ("coins_moves", "coins_runner_lag_seconds", "coins_throttled"):
        assert f"# TYPE {name}" in text
    assert "process_cpu_seconds_total" in text and "python_gc_objects_collected_total" in text
    assert "no-store" in response["Cache-Control"] and not response.cookies


def test_others_get_the_sites_own_404_as_for_a_page_that_is_not_there(client):
    refused = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    missing = client.get("/no-such-page", REMOTE_ADDR="203.0.113.9")
    assert refused.status_code == missing.status_code == 404
    assert refused.content == missing.content.replace(b"/no-such-page", b"/metrics")


def test_the_allow_list_and_the_token(client, settings):
    settings.COINS_METRICS_ALLOW = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.2.3.4").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 404
    settings.COINS_METRICS_TOKEN = "s3cret-token"
    outside = {"REMOTE_ADDR": "203.0.113.9"}
    assert (
        client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-token", **outside).status_code
        == 200
    )
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong", **outside).status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="s3cret-token", **outside).status_code == 404


def test_an_undeclared_proxy_on_loopback_opens_nothing(client):
    """A proxy on this host that nobody declared in COINS_TRUSTED_PROXIES: its requests come
    from 127.0.0.1, but they say they were forwarded."""
    assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 404


def sample(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def moves_counted() -> dict[str, float]:
    return {by: sample("coins_moves_total", by=by) for by in ("person", "bot", "auto")}


@pytest.mark.django_db(transaction=True)  # counted once the card's transaction commits
def test_every_card_is_counted_once_by_who_played_it(alice, bob):
    before = moves_counted()
    quick = services.game_quick_play(user=alice)
    for _ in range(4):  # alice's cards, each answered by the bots in the same transaction
        serve_until_seat(quick, 0)
        loaded = game_load(Game.objects.get(pk=quick.pk))
        flow.play_card(game_id=quick.pk, user=alice, card=CARD_CODES[min(loaded.state.hands[0])])

    clocked = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "open", "careful"], clock=10
    )
    services.seat_join(game_id=clocked.pk, user=bob)
    game = serve_until_seat(clocked, 0, bob=bob)
    assert flow.run_due(game.pk, now=game.turn_deadline).cards == 1  # alice's clock ran out

    plays = Play.objects.filter(game__in=[quick, clocked])
    people = (
        plays.filter(auto=False, game=quick, seat=0).count()
        + plays.filter(auto=False, game=clocked, seat__in=[0, 1]).count()
    )
    bots = (
        plays.filter(game=quick, seat__in=[1, 2]).count()
        + plays.filter(game=clocked, seat=2).count()
    )
    after = moves_counted()
    assert after["person"] - before["person"] == people >= 4
    assert after["bot"] - before["bot"] == bots > 0
    assert after["auto"] - before["auto"] == plays.filter(auto=True).count() == 1


def serve_until_seat(game: Game, seat: int, bob=None) -> Game:
    """Let the bots play (and bob his lowest card) until ``seat`` is to play."""
    for _ in range(20):
        fresh = Game.objects.get(pk=game.pk)
        loaded = game_load(fresh)
        if loaded.state.to_play == seat:
            return fresh
        due = loaded.seats[loaded.state.to_play]
        if due.user_id:
            card = CARD_CODES[min(loaded.state.hands[due.number])]
            flow.play_card(game_id=game.pk, user=bob, card=card)
        else:
            flow.run_due(game.pk, now=timezone.now() + timedelta(minutes=1))
    raise AssertionError("never the seat's turn")


def test_the_runner_observes_how_late_it_serves_a_due_game(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    Game.objects.exclude(pk=game.pk).update(due_at=None)
    Game.objects.filter(pk=game.pk).update(due_at=timezone.now() - timedelta(seconds=5))
    count, total = (sample(f"coins_runner_lag_seconds_{part}") for part in ("count", "sum"))
    assert claim_and_run() == game.pk
    assert sample("coins_runner_lag_seconds_count") == count + 1
    assert 5 <= sample("coins_runner_lag_seconds_sum") - total < 65
    assert claim_and_run() is None  # nothing due: nothing observed
    assert sample("coins_runner_lag_seconds_count") == count + 1


def test_a_mistyped_allow_list_stops_the_start_with_its_reason():
    from django.core.exceptions import ImproperlyConfigured

    from coins_site.operations.views import _networks

    with pytest.raises(ImproperlyConfigured, match="COINS_METRICS_ALLOW"):
        _networks(("127.0.0.0/8", "10.0.0.0/33"))
