"""The streams' Redis pub/sub layer outlives a Redis restart: a stream subscribed before the
outage is woken again after it, with no reconnect of its own (while Redis is down, streams
read the database at their keepalive)."""

import asyncio
import time

import pytest
from channels.layers import get_channel_layer

from games.realtime import push
from tests.redis_server import layers_on_private_redis


@pytest.fixture
def streams_on_private_redis(settings):
    def layers(url):
        return {
            "default": {"BACKEND": "channels.layers.InMemoryChannelLayer"},
            "streams": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [url]},
            },
        }

    settings.COINS_STREAM_LAYER = "streams"
    with layers_on_private_redis(settings, layers) as redis:
        yield redis


async def woken_within(layer, channel: str, seconds: float) -> dict | None:
    try:
        return await asyncio.wait_for(layer.receive(channel), seconds)
    except TimeoutError:
        return None


async def test_a_stream_is_woken_again_after_redis_restarts(streams_on_private_redis):
    redis = streams_on_private_redis
    layer = get_channel_layer(push.stream_alias())
    channel = await layer.new_channel()
    await layer.group_add(push.group_name(7), channel)
    wake = {"type": "table.update", "moves": 1}
    await layer.group_send(push.group_name(7), wake)
    assert await woken_within(layer, channel, 5) == wake

    redis.kill()
    redis.start()
    # The layer notices the lost connection on its next use, then subscribes again; the
    # wakes sent meanwhile may be lost (the stream's keepalive reads the database for them).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            await layer.group_send(push.group_name(7), {**wake, "moves": 2})
        except Exception:
            await asyncio.sleep(0.2)
            continue
        if await woken_within(layer, channel, 0.5) == {**wake, "moves": 2}:
            break
    else:
        pytest.fail("the streams layer never delivered again after Redis came back")
    await layer.flush()
