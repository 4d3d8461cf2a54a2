"""Pins what games/channels_adapter.py takes from Channels and channels-redis beyond their
documented API to the versions installed: an upgrade that changes it fails here."""

import asyncio
import inspect
import os

import channels
import channels_redis
import pytest
from channels.consumer import AsyncConsumer
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer

from games.realtime.channels_adapter import (
    dispatch_without_db_hop,
    last_reads_finished,
    others_watching,
    read_never_cancelled,
)


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
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # flush() clears only its own
    return RedisChannelLayer(hosts=[url], prefix=f"adapter-test-{worker}")


LAYERS = {"memory": InMemoryChannelLayer, "redis": _redis_layer}


@pytest.mark.parametrize("kind", sorted(LAYERS))
async def test_others_watching_counts_every_socket_but_the_asking_one(kind):
    """Exact whatever the asker's own membership: it may have left the group already (a
    socket closing while its bots still play), and then one other watcher still counts."""
    layer = await _layer_or_skip(kind)
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


async def _layer_or_skip(kind: str):
    layer = LAYERS[kind]()
    try:
        await layer.flush()
    except OSError:
        if os.environ.get("REDIS_URL"):
            raise  # CI and production settings name a Redis: it must be there
        pytest.skip("no Redis running here (SQLite and in-memory defaults)")
    return layer


def _recorded_read(layer, channel: str, outcomes: list):
    """A socket's read of ``channel`` that notes how it ended: a message's type, or a cancel."""

    async def receive():
        try:
            message = await layer.receive(channel)
        except BaseException:  # a cancel (redis-py may end a cancelled pop with a timeout)
            outcomes.append("cancelled")
            raise
        outcomes.append(message["type"])
        return message

    return receive


async def _a_read_under_way(layer, channel: str, outcomes: list) -> asyncio.Task:
    reading = asyncio.create_task(
        read_never_cancelled(layer, channel, _recorded_read(layer, channel, outcomes))
    )
    while not getattr(layer, "receive_count", 1):  # Redis: until the read has begun
        await asyncio.sleep(0)
    return reading


async def test_a_closing_socket_s_read_on_redis_ends_on_its_last_message_not_a_cancel():
    """A cancel landing while the process's reader pops a message loses that message, meant
    for another socket: a closing socket's read is left to end on a message of its own."""
    layer = await _layer_or_skip("redis")
    await last_reads_finished()  # none from an earlier test's sockets on this loop
    channel = await layer.new_channel()
    outcomes: list[str] = []
    reading = await _a_read_under_way(layer, channel, outcomes)
    reading.cancel()  # as Channels does when the socket closes
    with pytest.raises(asyncio.CancelledError):
        await reading
    await last_reads_finished()
    assert outcomes == ["socket.gone"]
    assert layer.receive_count == 0  # no read left behind
    await layer.flush()


async def test_a_message_for_another_socket_reaches_it_while_one_closes():
    layer = await _layer_or_skip("redis")
    closing, staying = await layer.new_channel(), await layer.new_channel()
    gone: list[str] = []
    first = await _a_read_under_way(layer, closing, gone)  # the process's reader now
    heard: list[str] = []
    second = await _a_read_under_way(layer, staying, heard)
    first.cancel()
    await layer.send(staying, {"type": "table.update", "moves": 4})
    assert (await second)["moves"] == 4
    with pytest.raises(asyncio.CancelledError):
        await first
    await last_reads_finished()
    assert (gone, heard) == (["socket.gone"], ["table.update"])
    await layer.flush()


async def test_a_closed_socket_s_read_that_ends_on_another_message_reads_on_to_its_own():
    """The closed socket's read ends on a message meant for it (unheard) before its last
    message arrives: it reads on to that one, which else would land later in the layer's
    buffer for the channel and stay there, no one reading it again."""
    from games.realtime.channels_adapter import _let_read_finish

    layer = await _layer_or_skip("redis")
    channel, staying = await layer.new_channel(), await layer.new_channel()
    read = asyncio.get_running_loop().create_future()
    finishing = asyncio.create_task(_let_read_finish(layer, channel, read))
    await asyncio.sleep(0)  # its last message on its way
    read.set_result({"type": "table.update"})  # the read ended on another message first
    await finishing
    await layer.send(staying, {"type": "chat.message"})
    assert (await layer.receive(staying))["type"] == "chat.message"  # the process's reader
    assert channel not in layer.receive_buffer and layer.receive_count == 0
    await layer.flush()


async def test_with_redis_away_a_closing_socket_s_read_is_cancelled_after_all(monkeypatch):
    layer = await _layer_or_skip("redis")
    channel = await layer.new_channel()
    outcomes: list[str] = []
    reading = await _a_read_under_way(layer, channel, outcomes)

    async def away(*args):
        raise OSError("Connection refused")

    monkeypatch.setattr(layer, "send", away)
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading
    await last_reads_finished()
    assert outcomes == ["cancelled"] and layer.receive_count == 0
    await layer.flush()


async def test_the_in_memory_layer_s_reads_are_cancelled_as_they_are():
    layer = await _layer_or_skip("memory")
    channel = await layer.new_channel()
    outcomes: list[str] = []
    reading = await _a_read_under_way(layer, channel, outcomes)
    await asyncio.sleep(0)  # the read waits in the layer
    reading.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reading
    assert outcomes == ["cancelled"]


def test_reads_left_on_a_loop_that_closed_are_forgotten_not_awaited():
    """A test's loop may close while its sockets' last reads still run: a later test's
    ``last_reads_finished`` must not await them on its own loop (it failed so, once)."""
    from games.realtime import channels_adapter

    async def left_behind():
        read = asyncio.ensure_future(asyncio.Event().wait())
        channels_adapter._last_reads.add(read)
        return read

    earlier = asyncio.new_event_loop()
    read = earlier.run_until_complete(left_behind())
    read.cancel()  # as the loop's end does
    earlier.run_until_complete(asyncio.wait([read]))
    earlier.close()
    asyncio.run(last_reads_finished())
    assert not channels_adapter._last_reads
