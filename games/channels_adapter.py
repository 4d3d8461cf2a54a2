"""What we use of Channels and channels-redis beyond their documented API, in one place.

Each use saves a hop on the hot path, and each is pinned by ``tests/games/test_channels_adapter.py``
to the installed versions: an upgrade that changes what we lean on fails that test, not the
site.
"""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer


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
