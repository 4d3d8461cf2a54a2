"""/healthz for load balancers: the database, the channel layer and a table runner's
heartbeat; 200 when all pass, 503 naming the failing ones."""

import asyncio
import json
import os
import time
from datetime import timedelta

import pytest
from channels.layers import channel_layers
from django.test import Client
from django.utils import timezone

from coins_site.operations import heartbeat
from coins_site.operations.models import RunnerHeartbeat

pytestmark = pytest.mark.django_db


@pytest.fixture
def client():
    return Client(HTTP_HOST="localhost")


@pytest.fixture(autouse=True)
def fresh_channel_layers():
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def health(client, **extra):
    response = client.get("/healthz", **extra)
    return response, json.loads(response.content)


def test_all_well_answers_200_with_each_checks_state_and_time(client, django_assert_num_queries):
    heartbeat.beat()
    with django_assert_num_queries(2):  # SELECT 1, the youngest heartbeat: nothing written
        response, body = health(client)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert body["status"] == "ok" and body["failing"] == []
    assert set(body["checks"]) == {"database", "channel_layer", "runner"}
    for check in body["checks"].values():
        assert check["ok"] is True and check["ms"] >= 0
    assert 0 <= body["checks"]["runner"]["age_s"] < 15
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies  # no session, no CSRF cookie, no language cookie


def test_no_runner_heartbeat_answers_503_naming_the_runner(client):
    response, body = health(client)
    assert response.status_code == 503
    assert body["failing"] == ["runner"] and body["checks"]["database"]["ok"] is True
    assert "ever beaten" in body["checks"]["runner"]["error"]


def test_a_stale_heartbeat_fails_and_another_processes_fresh_one_passes(client, settings):
    settings.COINS_HEALTH_RUNNER_AGE = 15
    RunnerHeartbeat.objects.create(host="old", pid=1, beat_at=timezone.now() - timedelta(minutes=1))
    response, body = health(client)
    assert response.status_code == 503 and "60" in body["checks"]["runner"]["error"]
    # a runner in another process (this one runs none: COINS_TABLE_RUNNER is off in tests)
    RunnerHeartbeat.objects.create(host="other-host", pid=4242, beat_at=timezone.now())
    assert health(client)[0].status_code == 200


def test_the_runner_check_can_be_turned_off(client, settings):
    settings.COINS_HEALTH_RUNNER_AGE = 0
    response, body = health(client)
    assert response.status_code == 200 and set(body["checks"]) == {"database", "channel_layer"}


def test_a_load_balancer_may_ask_by_address_and_over_plain_http(client, settings):
    heartbeat.beat()
    settings.SECURE_SSL_REDIRECT = True  # DJANGO_HTTPS=1
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8001")  # not in ALLOWED_HOSTS
    assert response.status_code == 200
    assert client.get("/", HTTP_HOST="10.1.2.3:8001").status_code == 400  # pages still refuse


def test_only_reads(client):
    heartbeat.beat()
    assert client.post("/healthz").status_code == 404  # like any page that is not there


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")
def test_the_redis_layer_is_checked_with_a_round_trip(client, settings):
    heartbeat.beat()
    layer = {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": os.environ["REDIS_URL"], "socket_timeout": None}]},
    }
    settings.CHANNEL_LAYERS = {"default": layer}
    response, body = health(client)
    assert response.status_code == 200 and body["checks"]["channel_layer"]["ok"] is True
    assert "backend" not in body["checks"]["channel_layer"]  # not the in-memory shortcut

    channel_layers.backends.clear()
    layer["CONFIG"]["hosts"] = [{"address": "redis://127.0.0.1:1/0"}]  # nothing listens
    response, body = health(client)
    assert response.status_code == 503 and body["failing"] == ["channel_layer"]
    assert body["checks"]["channel_layer"]["error"]


def test_pacemaker_beats_every_couple_of_seconds_and_prunes_now_and_then():
    now = [1000.0]
    pacemaker = heartbeat.Pacemaker(clock=lambda: now[0])
    gone = RunnerHeartbeat.objects.create(
        host="gone", pid=7, beat_at=timezone.now() - heartbeat.FORGET_AFTER - timedelta(minutes=1)
    )
    assert pacemaker.due()
    pacemaker.beat()
    mine = RunnerHeartbeat.objects.get(host=heartbeat.HOST, pid=os.getpid())
    assert not RunnerHeartbeat.objects.filter(pk=gone.pk).exists()  # pruned on the first beat
    now[0] += heartbeat.EVERY / 2
    assert not pacemaker.due()
    now[0] += heartbeat.EVERY / 2
    assert pacemaker.due()
    RunnerHeartbeat.objects.create(
        host="gone", pid=8, beat_at=timezone.now() - heartbeat.FORGET_AFTER - timedelta(minutes=1)
    )
    pacemaker.beat()
    assert RunnerHeartbeat.objects.filter(pid=8).exists()  # no prune before PRUNE_EVERY
    assert RunnerHeartbeat.objects.get(pk=mine.pk).beat_at >= mine.beat_at  # one row, upserted
    now[0] += heartbeat.PRUNE_EVERY
    pacemaker.beat()
    assert not RunnerHeartbeat.objects.filter(pid=8).exists()
    assert RunnerHeartbeat.objects.count() == 1


@pytest.mark.django_db(transaction=True)
async def test_a_running_table_runner_beats(settings):
    from asgiref.sync import sync_to_async

    from games.table.runner import run_tables_forever

    task = asyncio.create_task(run_tables_forever())
    try:
        mine = RunnerHeartbeat.objects.filter(host=heartbeat.HOST, pid=os.getpid())
        deadline = time.monotonic() + 30
        while not await sync_to_async(mine.exists)():
            assert time.monotonic() < deadline, "no heartbeat"
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
    response = await sync_to_async(Client(HTTP_HOST="localhost").get)("/healthz")
    assert response.status_code == 200
