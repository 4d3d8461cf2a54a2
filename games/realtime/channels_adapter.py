"""What we use of Channels and channels-redis beyond their documented API, in one place.

Each use saves a hop on the hot path or keeps a socket open through a Redis outage, and
each is pinned by ``tests/games/test_channels_adapter.py`` to the installed versions: an
upgrade that changes what we lean on fails that test, not the site.
"""

from __future__ import annotations

import asyncio
import logging

from channels.consumer import get_handler_name
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

# What a channel layer raises when its server is out of reach (restarting, say); anything
# else is a bug, and ends the socket as any bug does.
LAYER_OUTAGES = (OSError, RedisConnectionError, RedisTimeoutError)
PROBE_EVERY = (0.2, 0.5, 1.0)  # seconds between looks at a failed layer: quick, then each second


async def dispatch_without_db_hop(consumer, message) -> None:
    """What Channels' ``AsyncConsumer.dispatch`` does (find the handler for ``message``'s
    type and await it) without its per-message thread hop to close stale database
    connections: every database call of our consumer runs through ``in_db_thread``, which
    closes them itself, so the hop would only add latency."""
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


async def others_watching(layer, group: str, channel: str) -> bool:
    """Whether ``group`` may hold a socket besides ``channel`` (True when unsure).

    A person's own socket gets its board straight after its move, so a table nobody else
    watches (the usual game against bots) need not pay for a broadcast: on Redis one round
    trip instead of four, and no message back to this very process. ``channel`` may have
    left the group already (a socket closing while its bots still play). No race: a socket
    that joins after the count reads the board once the move is committed.

    Channels' layers can add to and send to a group but not count it, so this reads the
    group where each layer keeps it: on Redis, the group's sorted set (on the shard that
    holds the group), in memory, the layer's dict.
    """
    if isinstance(layer, RedisChannelLayer):
        key = layer._group_key(group)
        connection = layer.connection(layer.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            members, mine = await pipe.zcard(key).zscore(key, channel).execute()
        return members - (mine is not None) > 0
    if isinstance(layer, InMemoryChannelLayer):
        members = layer.groups.get(group, {})
        return len(members) - (channel in members) > 0
    return True


_probes: dict[tuple[int, int], asyncio.Task] = {}  # (event loop, layer): the one look going on


async def wait_for_channel_layer(layer) -> None:
    """Return once ``layer`` answers again after it failed (on Redis, a PING).

    Every socket of a process whose layer failed waits here, on one probe per process, not
    one each: a Redis outage with 500 sockets open is one PING a second, not 500.
    """
    key = (id(asyncio.get_running_loop()), id(layer))
    probe = _probes.get(key)
    if probe is None or probe.done():
        probe = _probes[key] = asyncio.create_task(_probe_until_answered(layer))
    await asyncio.shield(probe)


async def _probe_until_answered(layer) -> None:
    for attempt in range(1_000_000):
        await asyncio.sleep(PROBE_EVERY[min(attempt, len(PROBE_EVERY) - 1)])
        try:
            await _ping(layer)
        except Exception:  # still down
            continue
        log.warning("Channel layer answers again (after %d looks)", attempt + 1)
        return


async def _ping(layer) -> None:
    if isinstance(layer, RedisChannelLayer):
        for index in range(layer.ring_size):
            await layer.connection(index).ping()


class RidesOutLayerOutages:
    """For a consumer whose socket must outlive a channel layer outage (Redis restarting).

    Channels' ``AsyncConsumer.__call__`` sets ``self.channel_receive`` to the layer's receive
    and closes the socket with 1011 when it raises. This mixin keeps that receive aside and
    hands Channels ``receive_from_layer`` instead: on an outage the socket stays open, waits
    until the layer answers again (``wait_for_channel_layer``), then gets a ``layer.back``
    message, for which the consumer defines ``layer_back`` (rejoin its groups, a restarted
    Redis has forgotten them, and send what it missed).
    """

    @property
    def channel_receive(self):
        return self.receive_from_layer

    @channel_receive.setter
    def channel_receive(self, receive):  # set by Channels' AsyncConsumer.__call__
        self.layer_receive = receive

    async def receive_from_layer(self):
        """The next message from the channel layer, or ``layer.back`` after an outage."""
        try:
            return await read_never_cancelled(
                self.channel_layer, self.channel_name, self.layer_receive
            )
        except LAYER_OUTAGES as error:
            log.warning("Channel layer failed at %s: %s", self.scope.get("path"), error)
            await wait_for_channel_layer(self.channel_layer)
            return {"type": "layer.back"}

    async def layer_back(self, event):
        raise NotImplementedError("a consumer that rides out outages says what it missed")


LAST_READ_SECONDS = 10  # a closed socket's read still going this long is cancelled after all
GONE = "socket.gone"  # the last message a closed socket sends itself
_last_reads: set[asyncio.Task] = set()  # closed sockets' reads, finishing (kept referenced)


async def read_never_cancelled(layer, channel: str, receive):
    """``await receive()``, the read left to finish if the socket closes meanwhile.

    On Redis the sockets of a process take turns reading the process's one queue: the
    reader of the moment pops a message for any of them (``BZPOPMIN``) and hands it over.
    Channels cancels a socket's read when the socket closes. A cancel that lands while that
    pop's answer is on its way loses the message, meant for another socket (redis-py drops
    the connection), and a cancelled reader was seen to hold the turn until its pop timed out
    (5 s), every other socket of the process deaf meanwhile (``lab/benchmarks/layer_loss.py``:
    2 or 3 messages lost of 8,000 and rounds of 136 s against 1.1 s; docs/benchmarks.md).
    So a closing socket's read is not cancelled: the socket sends itself a last message, on
    which its read ends, and a read still going after ``LAST_READ_SECONDS`` (Redis away) is
    cancelled then. The in-memory layer loses nothing to a cancel: its reads are awaited as
    they are."""
    if not isinstance(layer, RedisChannelLayer):
        return await receive()
    read = asyncio.ensure_future(receive())
    try:
        return await asyncio.shield(read)
    except asyncio.CancelledError:
        read.add_done_callback(_outcome_taken)
        if not read.done():
            last = asyncio.ensure_future(_let_read_finish(layer, channel, read))
            _last_reads.add(last)
            last.add_done_callback(_last_reads.discard)
        raise


async def _let_read_finish(layer, channel: str, read: asyncio.Future) -> None:
    """End a closed socket's ``read`` on a last message of its own. A read that ends on
    another message first (one meant for the closed socket, unheard) reads on until its own:
    left unread, it would land later in the layer's buffer for this channel, which no one
    reads again, and stay there for the life of the process."""
    loop = asyncio.get_running_loop()
    try:
        await layer.send(channel, {"type": GONE})
        deadline = loop.time() + LAST_READ_SECONDS
        while (await asyncio.wait([read], timeout=deadline - loop.time()))[0]:
            if read.cancelled() or read.exception() is not None:
                break
            if read.result().get("type") == GONE:
                return
            read = asyncio.ensure_future(layer.receive(channel))  # unheard: read on
            read.add_done_callback(_outcome_taken)
    except Exception as error:  # Redis away: nothing for the read to lose then
        log.info("A closed socket's last read could not be ended by a message: %s", error)
    finally:
        read.cancel()  # ended already, unless Redis is away
    if not read.done():
        await asyncio.wait([read])  # its own ``finally`` done: the layer's count of reads


def _outcome_taken(read: asyncio.Future) -> None:
    """A closed socket's read ends unheard: take its outcome (asyncio warns otherwise)."""
    if not read.cancelled():
        read.exception()


async def last_reads_finished() -> None:
    """Return once every closed socket's read on this event loop has ended (a test's end).
    Reads left on a loop that has closed since (an earlier test's) are forgotten."""
    loop = asyncio.get_running_loop()
    while True:
        for last in list(_last_reads):
            if last.get_loop().is_closed():
                _last_reads.discard(last)
        mine = [last for last in _last_reads if last.get_loop() is loop]
        if not mine:
            return
        await asyncio.gather(*mine, return_exceptions=True)


RETRY_AFTER = (0.05, 0.2)  # seconds: a pooled connection that died with Redis fails once


async def retrying(call, *args):
    """``await call(*args)``, tried again twice if the layer fails: after Redis restarts,
    each pooled connection fails on its first use and the next one is fresh. Raises the
    last failure if Redis is really away."""
    for pause in RETRY_AFTER:
        try:
            return await call(*args)
        except LAYER_OUTAGES:
            await asyncio.sleep(pause)
    return await call(*args)
