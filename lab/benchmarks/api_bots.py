"""Many Bot API programs at once on one Daphne, and people's tables beside them.

Each API bot is a bot account with a token: it opens a table against two site bots
(``POST /api/games``), follows its game's NDJSON stream and, when the stream says it is to
play, thinks ``think`` seconds and posts its card (``POST /api/bot/game/<id>/play/<card>``),
again and again until the run ends. Measured:

* the move's round trip: the POST's answer;
* the move to its update: from the POST to the stream's ``gameState`` that shows it;

and, at the same time, people at ``tables`` tables over WebSockets (``lab.benchmarks.tables``):
their move-to-update latency, what people feel while the programs play.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from accounts.models import Profile
from botapi.tokens import token_create
from games.engine.bots import LEVELS
from lab.benchmarks.servers import DaphneServer, new_player, use_a_key_of_our_own
from lab.benchmarks.table_figures import latency_figures
from lab.benchmarks.tables import retire, run_tables

LEVEL_OF_KEY = {level.key: level for level in LEVELS}


@dataclass
class ApiTally:
    round_trips: list[float] = field(default_factory=list)  # seconds
    updates: list[float] = field(default_factory=list)  # POST sent -> stream shows it
    moves: int = 0
    games_finished: int = 0
    games_opened: int = 0
    errors: Counter = field(default_factory=Counter)


def bot_account(run: str, number: int) -> tuple:
    """A bot account with a bot:play token; return the account (as ``new_player`` does)
    and the token."""
    user, session = new_player(f"api{run}", number)
    Profile.objects.filter(user=user).update(is_bot=True)
    return (user, session), token_create(user=user, name="bench", scopes=["bot:play"]).secret


async def _lines(response: httpx.Response):
    async for line in response.aiter_lines():
        if line.strip():
            yield json.loads(line)


async def play_one_game(client, game_id: str, think: float, deadline: float, tally) -> bool:
    """Follow one game's stream and play its turns; True if it finished."""
    sent_at: dict[int, float] = {}  # moves count after our card -> when we sent it
    acted_on = -1
    async with client.stream("GET", f"/api/bot/game/stream/{game_id}") as response:
        response.raise_for_status()
        async for event in _lines(response):
            if event["type"] not in ("gameFull", "gameState"):
                continue
            state = event["state"] if event["type"] == "gameFull" else event
            moves = len(state["moves"])
            for count in [c for c in sent_at if c <= moves]:
                tally.updates.append(time.perf_counter() - sent_at.pop(count))
            if state["status"] != "running":
                tally.games_finished += state["status"] == "finished"
                return True
            if not state["legal"] or moves == acted_on or time.monotonic() > deadline:
                if time.monotonic() > deadline:
                    return False
                continue
            acted_on = moves
            await asyncio.sleep(random.uniform(0.5, 1.5) * think)
            card = random.choice(state["legal"])
            started = time.perf_counter()
            answer = await client.post(f"/api/bot/game/{game_id}/play/{card}")
            tally.round_trips.append(time.perf_counter() - started)
            if answer.status_code == 200:
                tally.moves += 1
                sent_at[moves + 1] = started
            else:
                tally.errors[f"play {answer.status_code}"] += 1
    return False


async def run_bot(base: str, token: str, opponents, think: float, deadline: float, tally):
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx.Timeout(30, read=60)
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=timeout) as client:
        await asyncio.sleep(random.uniform(0, 3))  # the programs start over a few seconds
        while time.monotonic() < deadline:
            body = {"target": 10, "opponents": opponents, "rated": False}
            answer = await client.post("/api/games", json=body)
            if answer.status_code != 201:
                tally.errors[f"open {answer.status_code}"] += 1
                await asyncio.sleep(1)
                continue
            tally.games_opened += 1
            try:
                await play_one_game(client, answer.json()["id"], think, deadline, tally)
            except httpx.HTTPError as error:
                tally.errors[type(error).__name__] += 1


def _ms(values: list[float]) -> dict:
    return {**latency_figures([v * 1000 for v in values], digits=1), "count": len(values)}


def benchmark(*, bots: int, tables: int, think: float, seconds: float, opponents) -> dict:
    run = secrets.token_hex(3)
    use_a_key_of_our_own()
    accounts, tokens = zip(*(bot_account(run, n) for n in range(bots)), strict=True)
    people = [new_player(run, n) for n in range(tables)]
    query_log = Path(tempfile.mkdtemp()) / "queries.log"
    daphne = DaphneServer(query_log)
    base = f"http://127.0.0.1:{daphne.port}"
    tally = ApiTally()
    cpu_before = daphne.cpu_seconds()
    started = time.perf_counter()

    async def everything():
        deadline = time.monotonic() + seconds
        programs = [run_bot(base, t, opponents, think, deadline, tally) for t in tokens]
        people_run = run_tables(
            tables=tables,
            think=think,
            seconds=seconds,
            bases=[base.replace("http", "ws")],
            players=people,
            bot=LEVEL_OF_KEY[opponents[0]].bot,  # people meet the bots the programs meet
        )
        results = await asyncio.gather(people_run, *programs)
        return results[0]

    try:
        people_tally = asyncio.run(everything())
    finally:
        elapsed = time.perf_counter() - started
        cpu = daphne.cpu_seconds()
        daphne.stop()
        retire([*accounts, *people])  # a later run's runners would serve what is left
    return {
        "api_bots": bots,
        "people_tables": tables,
        "think_seconds": think,
        "seconds": round(elapsed, 1),
        "api_moves": tally.moves,
        "api_moves_per_second": round(tally.moves / elapsed, 1),
        "api_games_opened": tally.games_opened,
        "api_games_finished": tally.games_finished,
        "api_move_round_trip_ms": _ms(tally.round_trips),
        "api_move_to_stream_update_ms": _ms(tally.updates),
        "people_moves": people_tally.human_moves,
        "people_move_to_update_ms": _ms(people_tally.latencies),
        "server_cpu_seconds": round(cpu - cpu_before, 1) if cpu and cpu_before else None,
        "errors": dict(tally.errors) | {f"people {k}": v for k, v in people_tally.errors.items()},
    }
