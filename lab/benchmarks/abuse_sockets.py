"""The socket half of ``bench_abuse``: floods of messages, piles of sockets, signed-out
crowds, 500 watchers at one table coming and going, and hints asked from many accounts.

Addresses: the benchmark's server trusts the benchmark as its proxy, so a socket's address is
the ``X-Forwarded-For`` it opens with.
"""

from __future__ import annotations

import asyncio
import time

import websockets

from lab.benchmarks.abuse_http import NET

BOARD = 'id="board"'


def headers_for(origin: str, session: str = "", address: str = "127.0.0.1") -> dict:
    headers = {"Origin": origin, "X-Forwarded-For": address}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    return headers


async def open_socket(ws_base: str, game_id: int, headers: dict):
    """A socket that got its board, or the close code that refused it."""
    ws = await websockets.connect(
        f"{ws_base}/ws/games/{game_id}/", additional_headers=headers, max_size=2**22
    )
    try:
        while BOARD not in await asyncio.wait_for(ws.recv(), 15):
            pass
        return ws
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else 1006


async def crowd(ws_base: str, game_id: int, headers: list[dict]) -> tuple[list, dict]:
    """Open every socket at once; return the open ones and the refusals by close code."""
    results = await asyncio.gather(
        *(open_socket(ws_base, game_id, h) for h in headers), return_exceptions=True
    )
    sockets = [r for r in results if not isinstance(r, int | BaseException)]
    refused: dict = {}
    for r in results:
        if isinstance(r, int | BaseException):
            key = str(r if isinstance(r, int) else type(r).__name__)
            refused[key] = refused.get(key, 0) + 1
    return sockets, refused


async def close_all(sockets: list) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


async def message_flood(ws_base: str, session: str, game_id: int, origin: str) -> dict:
    """5 sockets of one person each send 5,000 messages as fast as they can."""
    counts = {"sent": 0, "answers": 0, "closed_4429": 0}
    started = time.perf_counter()

    async def flood():
        ws = await open_socket(ws_base, game_id, headers_for(origin, session))
        if isinstance(ws, int):
            return
        try:
            for _ in range(5000):
                await ws.send('{"card": "13O"}')
                counts["sent"] += 1
            while True:
                await asyncio.wait_for(ws.recv(), 5)
                counts["answers"] += 1
        except websockets.ConnectionClosed as closed:
            counts["closed_4429"] += closed.rcvd is not None and closed.rcvd.code == 4429
        except TimeoutError:
            await ws.close()

    await asyncio.gather(*(flood() for _ in range(5)))
    counts["seconds"] = round(time.perf_counter() - started, 2)
    return counts


async def pile(ws_base: str, session: str, game_id: int, origin: str) -> dict:
    """300 sockets at once on one table from one signed-in person (5 allowed a table)."""
    sockets, refused = await crowd(ws_base, game_id, [headers_for(origin, session)] * 300)
    await close_all(sockets)
    return {"tried": 300, "served": len(sockets), "refused": refused}


async def anonymous_flood(ws_base: str, game_id: int, origin: str) -> dict:
    """150 signed-out sockets at once from one address (10 allowed an address)."""
    crowd_headers = [headers_for(origin, address=NET + "80")] * 150
    sockets, refused = await crowd(ws_base, game_id, crowd_headers)
    await close_all(sockets)
    return {"tried": 150, "served": len(sockets), "refused": refused}


async def watchers(ws_base: str, game_id: int, origin: str, count=500, hold=20.0) -> dict:
    """``count`` signed-out watchers from ``count // 10`` addresses on one table, opened in
    waves of 50; held while the game goes on, 50 of them leaving and coming back every few
    seconds. Reports the boards each watcher received (one per move: arrivals and
    departures cost them a small frame only) and the frames of who is there."""
    addresses = [f"198.18.{n // 250}.{n % 250 + 1}" for n in range(count // 10)]
    all_headers = [headers_for(origin, address=addresses[n % len(addresses)]) for n in range(count)]
    sockets: list = []
    refused: dict = {}
    opened_at = time.perf_counter()
    for wave in range(0, count, 50):
        opened, wave_refused = await crowd(ws_base, game_id, all_headers[wave : wave + 50])
        sockets += opened
        for key, n in wave_refused.items():
            refused[key] = refused.get(key, 0) + n
    opening = time.perf_counter() - opened_at
    frames = {"boards": 0, "presence": 0, "other": 0}

    async def listen(ws):
        try:
            async for frame in ws:
                kind = (
                    "boards"
                    if BOARD in frame
                    else "presence"
                    if 'id="watching"' in frame
                    else "other"
                )
                frames[kind] += 1
        except websockets.ConnectionClosed:
            pass

    listeners = [asyncio.create_task(listen(ws)) for ws in sockets]
    deadline, churned = time.monotonic() + hold, 0
    while time.monotonic() < deadline:
        await asyncio.sleep(3)
        if len(sockets) < 100:
            continue  # too few to churn: they only watch
        leaving, sockets = sockets[:50], sockets[50:]
        await close_all(leaving)
        back, _refused = await crowd(ws_base, game_id, all_headers[:50])
        listeners += [asyncio.create_task(listen(ws)) for ws in back]
        sockets += back
        churned += len(leaving)
    await close_all(sockets)
    for task in listeners:
        task.cancel()
    held = len(sockets)
    return {
        "tried": count,
        "held": held,
        "refused": refused,
        "opening_seconds": round(opening, 2),
        "left_and_came_back": churned,
        "boards_per_watcher": round(frames["boards"] / max(1, held), 1),
        "presence_frames_per_watcher": round(frames["presence"] / max(1, held), 1),
    }


async def hint_flood(ws_base: str, origin: str, players: list[tuple[int, str]], seconds=20.0):
    """Many accounts, each at a casual table of its own, asking for a hint twice a second
    (each person may have 10 a minute; the hints lane thinks about a few at a time)."""
    counts = {"asked": 0, "hints": 0, "refused_minute": 0, "refused_busy": 0, "one_at_a_time": 0}
    deadline = time.monotonic() + seconds

    async def ask(game_id: int, session: str):
        ws = await open_socket(ws_base, game_id, headers_for(origin, session))
        if isinstance(ws, int):
            return

        async def read():
            async for frame in ws:
                counts["hints"] += "table-message hint" in frame
                counts["refused_minute"] += "hints this minute" in frame
                counts["refused_busy"] += "ask again in a moment" in frame
                counts["one_at_a_time"] += "one at a time" in frame

        reader = asyncio.create_task(read())
        try:
            while time.monotonic() < deadline:
                await ws.send('{"hint": "1"}')
                counts["asked"] += 1
                await asyncio.sleep(0.5)
            await asyncio.sleep(2)
        finally:
            reader.cancel()
            await ws.close()

    await asyncio.gather(*(ask(game_id, session) for game_id, session in players))
    return counts
