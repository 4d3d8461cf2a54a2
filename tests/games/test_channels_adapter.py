"""Pins what games/channels_adapter.py takes from Channels and channels-redis beyond their
documented API to the versions installed: an upgrade that changes it fails here."""

import inspect
import os

import channels
import channels_redis
import pytest
from channels.consumer import AsyncConsumer
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from games.realtime.channels_adapter import dispatch_without_db_hop, others_watching


def test_the_installed_versions_are_the_ones_the_adapter_was_written_for():
    assert channels.__version__.startswith("4.3.")
    assert channels_redis.__version__.startswith("4.3.")


def test_channels_dispatch_still_does_only_what_ours_does_plus_the_connection_hop():
    source = inspect.getsource(AsyncConsumer.dispatch)
    assert "get_handler_name(message)" in source
    assert "await aclose_old_connections()" in source
    assert source.count("await ") == 2  # the hop and the handler: nothing else to copy


def test_channels_still_sets_channel_receive_where_the_outage_mixin_takes_it():
    source = inspect.getsource(AsyncConsumer.__call__)
    assert "self.channel_receive = functools.partial(" in source
    assert "[receive, self.channel_receive]" in source


async def test_dispatch_calls_the_handler_of_the_message_type_and_refuses_unknown_types():
    seen = []

    class Consumer:
        async def table_update(self, message):
            seen.append(message)

    await dispatch_without_db_hop(Consumer(), {"type": "table.update", "moves": 3})
    assert seen == [{"type": "table.update", "moves": 3}]
    with pytest.raises(ValueError, match=r"No handler for message type chat\.nonsense"):
        await dispatch_without_db_hop(Consumer(), {"type": "chat.nonsense"})


def _redis_layer():
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    return RedisChannelLayer(hosts=[url], prefix="adapter-test")  # flush() clears only it


LAYERS = {"memory": InMemoryChannelLayer, "redis": _redis_layer}


@pytest.mark.parametrize("kind", sorted(LAYERS))
async def test_others_watching_counts_every_socket_but_the_asking_one(kind):
    """Exact whatever the asker's own membership: it may have left the group already (a
    socket closing while its bots still play), and then one other watcher still counts."""
    layer = LAYERS[kind]()
    try:
        await layer.flush()
    except OSError:
        if os.environ.get("REDIS_URL"):
            raise  # CI and production settings name a Redis: it must be there
        pytest.skip("no Redis running here (SQLite and in-memory defaults)")
    group, me, other = "game-others", await layer.new_channel(), await layer.new_channel()
    assert not await others_watching(layer, group, me)
    await layer.group_add(group, me)
    assert not await others_watching(layer, group, me)
    await layer.group_add(group, other)
    assert await others_watching(layer, group, me)
    await layer.group_discard(group, me)
    assert await others_watching(layer, group, me)
    await layer.group_discard(group, other)
    assert not await others_watching(layer, group, me)
    await layer.flush()
