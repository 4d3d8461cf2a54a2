"""How many channel-layer messages sockets lose while other sockets of the process close.

Each round starts 20 staying readers and 60 closing ones on one Redis channel layer, sends
each staying reader 10 messages while the closing ones end one by one (a millisecond apart),
then counts what the staying ones heard, and how long the round took. ``cancel`` ends a
closing read as Channels does (a cancel); ``finish`` as
``games.realtime.channels_adapter.read_never_cancelled`` does. The second argument is the
number of rounds (40).

    REDIS_URL=redis://127.0.0.1:6379/7 .venv/bin/python -m lab.benchmarks.layer_loss cancel 5
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from channels_redis.core import RedisChannelLayer

from games.realtime.channels_adapter import last_reads_finished, read_never_cancelled

STAYING, CLOSING, MESSAGES = 20, 60, 10


async def one_round(layer, way: str, tag: str) -> tuple[int, int]:
    """Return (messages sent, messages heard) for one round."""
    base = (await layer.new_channel()).split("!")[0] + "!"
    staying = [f"{base}stay{tag}-{n}" for n in range(STAYING)]
    closing = [f"{base}close{tag}-{n}" for n in range(CLOSING)]
    heard = dict.fromkeys(staying, 0)

    async def stay(channel):
        while not (await layer.receive(channel)).get("last"):
            heard[channel] += 1

    def closing_read(channel):
        if way == "finish":
            return read_never_cancelled(layer, channel, lambda: layer.receive(channel))
        return layer.receive(channel)

    readers = [asyncio.create_task(stay(channel)) for channel in staying]
    closers = [asyncio.create_task(closing_read(channel)) for channel in closing]
    await asyncio.sleep(0.05)

    async def send_all():
        for _ in range(MESSAGES):
            for channel in staying:
                await layer.send(channel, {"type": "x"})
            await asyncio.sleep(0.002)

    sending = asyncio.create_task(send_all())
    for closer in closers:
        closer.cancel()
        await asyncio.sleep(0.001)
    await sending
    await asyncio.gather(*closers, return_exceptions=True)
    await last_reads_finished()
    await asyncio.sleep(0.5)
    for channel in staying:
        await layer.send(channel, {"type": "x", "last": True})
    await asyncio.wait(readers, timeout=10)
    for reader in readers:
        reader.cancel()
    return STAYING * MESSAGES, sum(heard.values())


async def main(way: str, rounds: int) -> None:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/7")
    layer = RedisChannelLayer(hosts=[url], prefix="layer-loss")
    sent = heard = 0
    longest = 0.0
    for number in range(rounds):
        started = time.monotonic()
        round_sent, round_heard = await one_round(layer, way, str(number))
        sent, heard = sent + round_sent, heard + round_heard
        longest = max(longest, time.monotonic() - started)
    await layer.flush()
    print(
        f"{way}: {sent} messages sent, {sent - heard} lost, {rounds * CLOSING} reads ended;"
        f" longest round {longest:.1f} s"
    )


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coins_site.settings")
    django.setup()
    way = sys.argv[1] if len(sys.argv) > 1 else "cancel"
    asyncio.run(main(way, int(sys.argv[2]) if len(sys.argv) > 2 else 40))
