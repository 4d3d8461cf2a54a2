"""Drive many tables at once through real WebSockets and measure what a player feels.

Each table is one scripted person against two bots (no pause). The client sends a card and
times how long until its socket shows the board after that move: the move-to-update latency.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import re
import secrets
import ssl
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets
from asgiref.sync import sync_to_async

from games.engine.bots import LEVELS
from games.models import Game
from games.table.options import QUICK_PLAY_BOT
from games.table.seats import game_quick_play
from lab.benchmarks.servers import DaphneServer, new_player, use_a_key_of_our_own
from lab.benchmarks.table_figures import (
    card_lap_figures,
    latency_by_kind,
    latency_figures,
    percentile_by_window,
    query_figures,
    sent_together,
    spread,
    think_figures,
)

BOARD_MOVES = re.compile(r'id="board"[^>]*data-moves="(\d+)"')
BOARD_HAND = re.compile(r'id="board"[^>]*data-hand="(\d+)"')
HAND = re.compile(r'<section id="hand".*?</section>', re.S)
CARD = re.compile(r'data-card="([^"]+)"')
STALL_SECONDS = 15  # a table that hears nothing for this long has lost an update


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds
    latency_at: list[float] = field(default_factory=list)  # when each was taken (monotonic)
    latency_kind: list[str] = field(default_factory=list)  # the card's: see ``card_kind``
    turn_waits: list[float] = field(default_factory=list)  # card sent -> our turn again
    turn_wait_at: list[float] = field(default_factory=list)
    human_moves: int = 0
    games_finished: int = 0
    errors: Counter = field(default_factory=Counter)
    stalls: list = field(default_factory=list)  # (game id, moves seen) of tables left waiting
    new_game_waits: list[float] = field(default_factory=list)  # "Play now" to the page loaded
    new_game_at: list[float] = field(default_factory=list)
    loop_lags: list[float] = field(default_factory=list)  # the client's own loop's lateness
    measuring: bool = True  # False while the tables are still sitting down (``ramp``)
    think_spread: float = 0.0  # each think drawn from think * (1 -/+ this), evenly


async def play_table(
    *,
    base: str,
    session_key: str,
    user,
    think: float,
    deadline: float,
    tally: Tally,
    origin: str,
    bot: str,
    address: str = "127.0.0.1",
    target: int = 10,
    start_within: float = 0.0,
    games_by_page: bool = True,
) -> None:
    """Play games at one table until the deadline, timing each move's update. ``address``
    is the person's (the benchmark's servers trust it as their proxy, as a site behind a
    proxy does); ``target`` the points each game is played to.

    People do not all sit down in the same millisecond: each table starts at a random
    moment within one thinking time, else every table's 1 s timer would fire at once for
    the whole run and measure a burst of N simultaneous moves rather than N tables.
    ``start_within`` spreads the starts wider (``ramp``). Each game is started as the page's
    "Play now" does, over HTTP (``games_by_page``), or else written by this process, as the
    commits before the twenty-ninth sitting did (``--baseline`` runs so, both sides alike).
    """
    await asyncio.sleep(random.uniform(0, max(think, start_within)))
    async with page_client(session_key, address, origin) as http:
        while time.monotonic() < deadline:
            if games_by_page:
                asked = time.perf_counter()
                game_id = await quick_play(http, bot, target)
                if tally.measuring:
                    tally.new_game_waits.append(time.perf_counter() - asked)
                    tally.new_game_at.append(time.monotonic())
            else:
                game_id = (
                    await sync_to_async(game_quick_play)(user=user, bot=bot, target=target)
                ).pk
            person = (session_key, address, origin)
            if not await play_one(base, game_id, person, think, deadline, tally):
                return
            tally.games_finished += 1


LEVEL_OF_BOT = {level.bot: level.key for level in LEVELS}
logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per game started
GAME_ADDRESS = re.compile(r"/games/(\d+)/$")


def page_client(session_key: str, address: str, origin: str, transport=None) -> httpx.AsyncClient:
    """The person's browser for pages on the server at ``origin``: their session, a CSRF cookie
    and its token (as the page's forms send them), their address behind the proxy."""
    token = secrets.token_hex(16)  # an unmasked secret: 32 characters, as Django accepts
    return httpx.AsyncClient(
        base_url=origin,
        cookies={"sessionid": session_key, "csrftoken": token},
        headers={"X-CSRFToken": token, "Origin": origin, "X-Forwarded-For": address},
        timeout=STALL_SECONDS,
        transport=transport,
        verify=shared_tls(),
    )


@functools.cache
def shared_tls() -> ssl.SSLContext:
    """One TLS context for every person's client. By default httpx makes one per client and
    loads the CA bundle into it: 18 ms of CPU each, so 200 people sitting down within a
    second spent 3.7 s of the machine's CPU in the benchmark's own process, beside the
    servers it measures (the start of every 200-table run had a p99 near 100 ms)."""
    return ssl.create_default_context()


async def quick_play(http: httpx.AsyncClient, bot: str, target: int) -> int:
    """Start a game against two ``bot``s as the page's "Play now" button does: a POST to the
    person's server, whose process writes the game and wakes its own runner for the bots'
    first cards (made here in the benchmark's process, they waited for a runner's poll).
    Then load the new game's page, as the browser does on that redirect (its socket opens
    from there): a server in a wave of games' ends renders every one of those pages.
    Return the new game's id, from the redirect to its page."""
    reply = await http.post(
        "/games/quick-play/", data={"target": target, "level": LEVEL_OF_BOT[bot]}
    )
    where = reply.headers.get("location", "")
    found = GAME_ADDRESS.search(where)
    if reply.status_code != 302 or found is None:
        raise RuntimeError(f"quick play refused: {reply.status_code} {where} {reply.text[:200]}")
    page = await http.get(where)
    if page.status_code != 200:
        raise RuntimeError(f"game page refused: {page.status_code} {where}")
    return int(found.group(1))


async def play_one(base, game_id, person: tuple, think, deadline, tally: Tally) -> bool:
    """Play game ``game_id`` to its end on a socket of its own, as its page does, as
    ``person`` (session key, address, origin); return False if the deadline (or a stall)
    came first."""
    session_key, address, origin = person
    # As the new game's page opens its socket: it shows the players' chat, empty.
    path = f"/ws/games/{game_id}/?chat=players.0"
    async with person_socket(
        base, path, session_key=session_key, address=address, origin=origin
    ) as ws:
        ws.game_id = game_id
        try:
            return await play_game(ws, think, deadline, tally)
        except TimeoutError:
            return False


def thinking_time(think: float, spread: float) -> float:
    """One person's thinking before a card: ``think`` exactly, or with a ``spread``, drawn
    evenly from ``think * (1 - spread)`` to ``think * (1 + spread)`` (the same mean). People
    who all think exactly as long keep in step: the cards that once queued together in a
    server come back together (``table_figures.sent_together``)."""
    return think * random.uniform(1 - spread, 1 + spread) if spread else think


def person_socket(base: str, path: str, *, session_key: str, address: str, origin: str = ""):
    """A socket to ``path`` opened as the person of ``session_key`` would, from ``address``
    (the benchmark's servers trust it as their proxy): an async context manager."""
    headers = {
        "Cookie": f"sessionid={session_key}",
        "Origin": origin or origin_of(base),
        "X-Forwarded-For": address,
    }
    return websockets.connect(
        base + path, additional_headers=headers, max_size=2**22, compression=None
    )


async def _next_board(ws, tally: Tally, after: int = -1) -> tuple[str | None, int]:
    """Return the next board frame showing more than ``after`` moves, or None on an error."""
    while True:
        try:
            frame = await asyncio.wait_for(ws.recv(), STALL_SECONDS)
        except TimeoutError:
            tally.stalls.append((ws.game_id, after))
            raise
        found = BOARD_MOVES.search(frame, 0, 600)  # the board's opening tag comes first
        if found is None:
            if 'id="table-message"' not in frame:
                continue  # chat, presence: not about the cards
            tally.errors[frame[:120]] += 1  # a refusal
            return None, after
        if int(found.group(1)) > after:
            return frame, int(found.group(1))


async def play_game(ws, think: float, deadline: float, tally: Tally) -> bool:
    """Play one game at ``ws`` (its ``game_id`` set) to its end, timing each card's update;
    return False if the deadline came first."""
    frame, moves = await _next_board(ws, tally)
    sent = None  # when our last card went: the wait for our next turn starts there
    while True:
        if frame is None:
            frame, moves = await _next_board(ws, tally, moves)
            continue
        over = 'id="game-result"' in frame
        if sent is not None and (over or 'data-your-turn="true"' in frame) and tally.measuring:
            tally.turn_waits.append(time.perf_counter() - sent)
            tally.turn_wait_at.append(time.monotonic())
            sent = None
        if over:
            return True
        if 'data-your-turn="true"' not in frame:
            frame, moves = await _next_board(ws, tally, moves)
            continue
        if think:
            await asyncio.sleep(thinking_time(think, tally.think_spread))
        if time.monotonic() >= deadline:
            return False
        card = CARD.findall(HAND.search(frame).group(0))[0]
        started = sent = time.perf_counter()
        await ws.send(f'{{"card": "{card}"}}')
        reply, reply_moves = await _next_board(ws, tally, moves)
        if reply is not None and tally.measuring:
            tally.latencies.append(time.perf_counter() - started)
            tally.latency_at.append(time.monotonic())
            tally.latency_kind.append(card_kind(frame, reply))
            tally.human_moves += 1
        frame, moves = reply, reply_moves


def card_kind(before: str, after: str) -> str:
    """What a person's card was, by the boards before and after it (with both bots'
    answers): a game's last, a hand's last (the board shows a new hand) or any other."""
    if 'id="game-result"' in after:
        return "game_end"
    hands = BOARD_HAND.search(before, 0, 600), BOARD_HAND.search(after, 0, 600)
    if None not in hands and hands[0].group(1) != hands[1].group(1):
        return "hand_end"
    return "other"


async def run_tables(
    *,
    tables: int,
    think: float,
    seconds: float,
    bases: list,
    players: list,
    bot: str,
    ramp: float = 0.0,
    on_measuring=None,
    think_spread: float = 0.0,
    games_by_page: bool = True,
):
    """Play ``tables`` tables at once, dealt round the servers ``bases`` (one person each
    on one server, as a proxy would spread them).

    With a ``ramp``, the tables sit down at random moments over its first ``ramp`` seconds
    and nothing is counted until it ends (then ``on_measuring`` is awaited): ``seconds``
    of a steady state, where games end at any moment, as on a site people come to over
    time. Without one, every table's first games end together, in waves.
    """
    tally = Tally(measuring=not ramp, think_spread=think_spread)
    deadline = time.monotonic() + ramp + seconds

    async def start_measuring():
        await asyncio.sleep(ramp)
        if on_measuring is not None:
            await on_measuring()
        tally.measuring = True

    if ramp:
        measuring = asyncio.create_task(start_measuring())
    lag = asyncio.create_task(watch_loop_lag(tally, deadline))
    await asyncio.gather(
        *(
            play_table(
                base=bases[n % len(bases)],
                session_key=key,
                user=user,
                think=think,
                deadline=deadline,
                tally=tally,
                origin=origin_of(bases[n % len(bases)]),
                bot=bot,
                address=f"198.18.{n // 250}.{n % 250 + 1}",  # everyone from an address of their own
                start_within=ramp,
                games_by_page=games_by_page,
            )
            for n, (user, key) in enumerate(players[:tables])
        )
    )
    if ramp:
        await measuring
    lag.cancel()
    return tally


LAG_TICK = 0.005  # how often the client's loop is checked for lateness


async def watch_loop_lag(tally: Tally, deadline: float) -> None:
    """Record how late the benchmark's own event loop wakes a short sleep: a reply that came
    while the loop was busy with other people's frames is timed late by as much."""
    loop = asyncio.get_running_loop()
    while loop.time() < deadline:
        asked = loop.time()
        await asyncio.sleep(LAG_TICK)
        if tally.measuring:
            tally.loop_lags.append(loop.time() - asked - LAG_TICK)


def origin_of(base: str) -> str:
    return base.replace("ws://", "http://").replace("wss://", "https://")


def moves_played_by(players: list) -> int:
    """Cards played so far in all the games of the benchmark's players (bots' cards too)."""
    users = [user for user, _ in players]
    return sum(Game.objects.filter(seats__user__in=users).values_list("moves", flat=True))


def retire(players: list) -> None:
    """End the games the run left running: a later run's runners would otherwise serve them
    (a look at each idle table ten minutes on) and charge that run for it."""
    Game.objects.filter(
        seats__user__in=[user for user, _ in players],
        status__in=[Game.Status.WAITING, Game.Status.IN_PROGRESS],
    ).update(status=Game.Status.ABANDONED, due_at=None)


def benchmark(
    *,
    tables: int,
    think: float,
    seconds: float,
    url: str | None = None,
    servers: int = 1,
    bot_pause: float = 0.0,
    bot: str = QUICK_PLAY_BOT,
    ramp: float = 0.0,
    think_spread: float = 0.0,
    laps: bool = False,
    games_by_page: bool = True,
) -> dict:
    """Run the benchmark and return its figures (of the ``seconds`` after the ``ramp``);
    with ``laps``, where each card's time went on the servers' loops too (``Laps``: they
    cost the servers a little, so they are off for the figures that compare commits)."""
    run = secrets.token_hex(3)
    use_a_key_of_our_own()
    players = [new_player(run, n) for n in range(tables)]
    query_log = Path(tempfile.mkdtemp()) / "queries.log"
    # A scripted person in saturation plays faster than the per-socket limit lets anyone
    # send (a few cards a second): there, the servers lift it so the run measures them.
    limits = {} if think else {"COINS_SOCKET_BURST": "10000", "COINS_SOCKET_RATE": "10000"}
    if laps:
        limits["COINS_CARD_LAPS"] = "1"
    daphnes = (
        []
        if url
        else [DaphneServer(query_log, bot_pause, n, extra_env=limits) for n in range(servers)]
    )
    bases = [url] if url else [f"ws://127.0.0.1:{daphne.port}" for daphne in daphnes]
    start = {}

    def mark_start():
        start.update(
            moves=moves_played_by(players),
            at=time.perf_counter(),
            cpu=[daphne.cpu_seconds() for daphne in daphnes],
            client_cpu=time.process_time(),
        )

    mark_start()
    cpu_used = None
    try:
        tally = asyncio.run(
            run_tables(
                tables=tables,
                think=think,
                seconds=seconds,
                bases=bases,
                players=players,
                bot=bot,
                ramp=ramp,
                on_measuring=sync_to_async(mark_start),
                think_spread=think_spread,
                games_by_page=games_by_page,
            )
        )
    finally:
        elapsed = time.perf_counter() - start["at"]
        client_cpu = time.process_time() - start["client_cpu"]
        cpu_after = [daphne.cpu_seconds() for daphne in daphnes]
        if daphnes and None not in start["cpu"] + cpu_after:
            cpu_used = sum(cpu_after) - sum(start["cpu"])
        for daphne in daphnes:
            daphne.stop()
    all_moves = moves_played_by(players) - start["moves"]
    retire(players)
    lat = [x * 1000 for x in tally.latencies]
    waits = [x * 1000 for x in tally.turn_waits]
    return {
        "tables": tables,
        "servers": len(bases),
        "bot_pause_seconds": bot_pause,
        "mode": "realistic" if think else "saturation",
        "think_seconds": think,
        "think_spread": think_spread,
        "ramp_seconds": ramp,
        "seconds": round(elapsed, 2),
        "human_moves": tally.human_moves,
        "all_moves": all_moves,
        "human_moves_per_second": round(tally.human_moves / elapsed, 1),
        "moves_per_second": round(all_moves / elapsed, 1),
        "latency_ms": latency_figures(lat),
        "latency_p50_ms_by_10s": percentile_by_window(lat, tally.latency_at),
        "latency_p99_ms_by_10s": percentile_by_window(lat, tally.latency_at, 0.99),
        "latency_ms_by_kind": latency_by_kind(lat, tally.latency_kind),
        "cards_sent_together": sent_together(
            [at - latency for latency, at in zip(tally.latencies, tally.latency_at, strict=True)]
        ),
        # A person's wait from "Play now" to the new game's page (the POST and the page).
        "new_game_page_ms": latency_figures(new_games := [x * 1000 for x in tally.new_game_waits]),
        # The first 10 s hold every table's first game (all sit down within a second).
        "new_game_page_p95_ms_by_10s": percentile_by_window(new_games, tally.new_game_at, 0.95),
        "bot": bot,
        # A person's wait from their card to their next turn (the bots' pauses and
        # thinking included): what a table of search bots feels like.
        "turn_wait_ms": spread(waits),
        "bot_think_cpu_ms": {} if url else think_figures(query_log.with_name("thinking.log")),
        "games_finished": tally.games_finished,
        # What the server spends per person's move (their card, the bots' answers, the
        # pushes): the figure that decides how many tables one process can serve.
        "server_cpu_ms_per_human_move": round(cpu_used * 1000 / tally.human_moves, 2)
        if cpu_used and tally.human_moves
        else None,
        # The benchmark's own process (every person's client), on the servers' cores: its
        # CPU, and how late its loop woke (a reply is timed late by as much).
        "client_cpu_ms_per_human_move": round(client_cpu * 1000 / tally.human_moves, 2)
        if tally.human_moves
        else None,
        "client_loop_lag_ms": latency_figures([x * 1000 for x in tally.loop_lags]),
        "errors": sum(tally.errors.values()),
        "stalled_tables": tally.stalls,
        **(query_figures(query_log) if not url else {}),
        **(card_lap_figures(query_log) if not url else {}),
    }
