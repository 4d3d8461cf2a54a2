"""Play a tournament through real sockets and measure what its people feel.

Each person is a scripted client with a session of their own: it joins over HTTP (the page's
form), keeps the tournament page's socket (``ws/tournaments/<id>/``) open, and when the page
shows "Your table is ready" opens that table's socket and plays a card from its own hand
whenever it is its turn (``tables.play_game``: card sent -> own board showing it is the
move latency). After each game it waits for its next table (arena) or round (Swiss) until the
page says the tournament is over. Like the browser's page, it also asks for the page's live
part every 30 s while its socket is open (every 3 s while it is not), in case a notice was
lost: how often that found a table the socket had not shown is reported.
"""

from __future__ import annotations

import asyncio
import math
import os
import random
import re
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from accounts.benchmarks import Visitor
from lab.benchmarks.servers import DaphneServer, new_player, use_a_key_of_our_own
from lab.benchmarks.table_figures import latency_figures, percentile, query_figures, spread
from lab.benchmarks.tables import Tally, person_socket, play_game
from lab.benchmarks.tournament_checks import (
    tournament_check,
    tournament_create,
    tournament_start_now,
)

TABLE_LINK = re.compile(r'href="[^"]*?/(\d+)/" data-action="tournament-table"')
LIVE_STATUS = re.compile(r'id="tournament-live" data-status="(\w+)"')
OVER = ("finished", "cancelled")
POLL_OPEN, POLL_CLOSED = 30.0, 3.0  # the page's polls (static/js/tournament.js)
JOIN_SPREAD = 15.0  # seconds: people arrive one by one before the start, not all at once
TRIES_A_TABLE = 3  # a table socket that fails or goes silent is reopened this often


@dataclass
class PlayTally(Tally):
    table_waits: list[float] = field(default_factory=list)  # a game's end -> next table shown
    page_frames: int = 0  # live parts pushed to the page sockets (each rendered for its viewer)
    polls: int = 0
    polls_found_table: int = 0  # a table the page's poll showed before its socket did
    reopened_tables: int = 0
    people_done: int = 0  # saw the tournament over
    people_cut_off: int = 0  # still waiting when the run's time ran out
    loads: list[float] = field(default_factory=list)  # 1-minute load averages, every 30 s
    started: float = 0.0  # when staff started the tournament (monotonic)


@dataclass
class Person:
    number: int
    session_key: str
    http: str
    ws: str
    address: str

    def visitor(self) -> Visitor:
        visitor = Visitor(self.http)
        visitor.sign_in_as(self.session_key)
        visitor.opener.addheaders.append(("X-Forwarded-For", self.address))
        return visitor

    def socket(self, path: str):
        return person_socket(self.ws, path, session_key=self.session_key, address=self.address)


class Page:
    """What one person's tournament page shows (its status, their table), from its socket's
    frames and its polls."""

    def __init__(self) -> None:
        self.status = "upcoming"
        self.table: int | None = None
        self.socket_open = False
        self.changed = asyncio.Event()

    def read(self, html: str) -> None:
        status = LIVE_STATUS.search(html)
        if status is None:
            return
        link = TABLE_LINK.search(html)
        self.status, self.table = status.group(1), int(link.group(1)) if link else None
        self.changed.set()

    async def follow(self, person: Person, path: str, tally: PlayTally) -> None:
        """Keep the page's socket open as htmx's ws extension does: reopened after a failure
        or a close, 1 s later, then 2, 4, up to 8 s (each failure counted as an error)."""
        pause = 1.0
        while self.status not in OVER:
            try:
                async with person.socket(path) as socket:
                    self.socket_open, pause = True, 1.0
                    async for frame in socket:
                        tally.page_frames += 1
                        self.read(frame)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                tally.errors[f"page socket: {type(error).__name__}"] += 1
            finally:
                self.socket_open = False
                self.changed.set()
            await asyncio.sleep(pause)
            pause = min(pause * 2, 8.0)


async def take_part(
    person: Person,
    *,
    tournament_id: int,
    think: float,
    tally: PlayTally,
    until: float,
    arrived,
    join_spread: float = JOIN_SPREAD,
) -> None:
    """Join, then play every table the page shows until the tournament is over."""
    page_path = f"/tournaments/{tournament_id}/"
    visitor = person.visitor()
    try:
        await asyncio.sleep(random.uniform(0, join_spread))
        status, _ = await asyncio.to_thread(
            lambda: visitor.post(page_path + "join/", {}, visitor.token(page_path))
        )
    finally:
        arrived()
    if status != 302:
        tally.errors[f"join answered {status}"] += 1
        return
    page = Page()
    reader = asyncio.create_task(page.follow(person, f"/ws/tournaments/{tournament_id}/", tally))
    try:
        await _play_tables(person, page, visitor, page_path, think, tally, until)
    finally:
        reader.cancel()


async def _play_tables(person, page, visitor, page_path, think, tally, until) -> None:
    played: set[int] = set()
    tries: dict[int, int] = {}
    free_since = None  # when our last game ended
    while time.monotonic() < until:
        page.changed.clear()
        table = page.table if page.table not in played else None
        if table is None:
            if page.status in OVER:
                tally.people_done += 1
                return
            wait = POLL_OPEN if page.socket_open else POLL_CLOSED
            try:
                await asyncio.wait_for(page.changed.wait(), min(wait, until - time.monotonic()))
            except TimeoutError:
                await _poll(page, visitor, page_path, played, tally)
            continue
        if free_since is not None:
            tally.table_waits.append(time.perf_counter() - free_since)
            free_since = None
        if await _play_at(person, table, think, tally):
            played.add(table)
            tally.games_finished += 1
            free_since = time.perf_counter()
            continue
        tries[table] = tries.get(table, 0) + 1
        tally.reopened_tables += 1
        if tries[table] >= TRIES_A_TABLE:
            played.add(table)  # given up: the checks will show the game not over
    tally.people_cut_off += 1


async def _poll(page: Page, visitor: Visitor, page_path: str, played: set, tally) -> None:
    """The page's own poll of its live part (an htmx request)."""
    before = page.table
    status, html = await asyncio.to_thread(visitor.get, page_path, {"HX-Request": "true"})
    tally.polls += 1
    if status != 200:
        tally.errors[f"poll answered {status}"] += 1
        return
    page.read(html)
    if page.table not in (None, before) and page.table not in played:
        tally.polls_found_table += 1


async def _play_at(person: Person, table: int, think: float, tally: PlayTally) -> bool:
    """Play the game at ``table`` to its end; False if its socket failed or went silent."""
    try:
        async with person.socket(f"/ws/games/{table}/") as ws:
            ws.game_id = table
            return await play_game(ws, think, math.inf, tally)
    except TimeoutError:
        return False  # a stall, counted where it was seen
    except (ConnectionClosed, InvalidHandshake, OSError) as error:
        tally.errors[f"table socket: {type(error).__name__}"] += 1
        return False


async def _sample_load(tally: PlayTally) -> None:
    while True:
        tally.loads.append(os.getloadavg()[0])
        await asyncio.sleep(30)


async def run_people(
    *,
    people: list[Person],
    tournament_id: int,
    think: float,
    seconds: float,
    join_spread: float = JOIN_SPREAD,
) -> PlayTally:
    """Everyone joins; once all are in, staff start the tournament; then all play it out (or
    until ``seconds`` have passed)."""
    tally = PlayTally()
    until = time.monotonic() + seconds
    all_in, waiting = asyncio.Event(), [len(people)]

    def arrived() -> None:
        waiting[0] -= 1
        if not waiting[0]:
            all_in.set()

    sampler = asyncio.create_task(_sample_load(tally))
    tasks = [
        asyncio.create_task(
            take_part(
                person,
                tournament_id=tournament_id,
                think=think,
                tally=tally,
                until=until,
                arrived=arrived,
                join_spread=join_spread,
            )
        )
        for person in people
    ]
    await all_in.wait()
    await asyncio.to_thread(tournament_start_now, tournament_id)
    tally.started = time.monotonic()
    for outcome in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(outcome, BaseException):
            tally.errors[f"client: {type(outcome).__name__}: {outcome}"[:120]] += 1
    sampler.cancel()
    return tally


def by_window(tally: PlayTally, windows: int = 6) -> list[dict]:
    """Latency p50/p99 (ms) in equal slices of the play (from the start to the last card):
    steady, or worse as it goes on?"""
    if not tally.latency_at:
        return []
    length = max(tally.latency_at) - tally.started or 1.0
    slices = [[] for _ in range(windows)]
    for latency, at in zip(tally.latencies, tally.latency_at, strict=True):
        slices[min(windows - 1, int((at - tally.started) / length * windows))].append(latency)
    return [
        {"p50": _ms(percentile(s, 0.5)), "p99": _ms(percentile(s, 0.99)), "n": len(s)}
        for s in slices
    ]


def _ms(seconds: float) -> float | None:
    return None if math.isnan(seconds) else round(seconds * 1000, 1)


def benchmark(
    *,
    kind: str,
    people: int,
    rounds: int = 3,
    minutes: float = 60.0,
    think: float = 1.0,
    clock: int | None = 30,
    target: int = 10,
    bot_pause: float = 0.8,
    time_limit: float | None = None,
    join_spread: float = JOIN_SPREAD,
    extra_env: dict | None = None,
) -> dict:
    """Run one tournament of ``people`` scripted people on one Daphne (with its runner and
    the tournaments' lane) and return the figures. ``time_limit``: seconds before the clients
    give up (default: the arena's length, or 20 minutes a Swiss round, plus 15 minutes)."""
    run = secrets.token_hex(3)
    use_a_key_of_our_own()
    tournament = tournament_create(
        kind=kind,
        people=people,
        rounds=rounds,
        minutes=minutes,
        clock=clock,
        target=target,
        name=f"Bench {kind} {run}",
    )
    sessions = [new_player(run, n)[1] for n in range(people)]
    query_log = Path(tempfile.mkdtemp()) / "queries.log"
    daphne = DaphneServer(query_log, bot_pause, extra_env=extra_env)
    base = f"127.0.0.1:{daphne.port}"
    persons = [
        Person(n, key, f"http://{base}", f"ws://{base}", f"198.18.{n // 250}.{n % 250 + 1}")
        for n, key in enumerate(sessions)
    ]
    if time_limit is None:
        time_limit = (minutes * 60 if kind == "arena" else rounds * 20 * 60) + 15 * 60
    started = time.monotonic()
    cpu_before = daphne.cpu_seconds()
    try:
        tally = asyncio.run(
            run_people(
                people=persons,
                tournament_id=tournament.pk,
                think=think,
                seconds=time_limit,
                join_spread=join_spread,
            )
        )
    finally:
        elapsed = time.monotonic() - started
        cpu_after = daphne.cpu_seconds()
        daphne.stop()
    cpu = cpu_after - cpu_before if None not in (cpu_before, cpu_after) else None
    lat = [x * 1000 for x in tally.latencies]
    return {
        "kind": kind,
        "people": people,
        "rounds": rounds if kind == "swiss" else None,
        "minutes": minutes if kind == "arena" else None,
        "think_seconds": think,
        "clock": clock,
        "target": target,
        "bot_pause_seconds": bot_pause,
        "tournament": tournament.pk,
        "seconds": round(elapsed, 1),
        "human_moves": tally.human_moves,
        "human_moves_per_second": round(tally.human_moves / elapsed, 1),
        "latency_ms": latency_figures(lat),
        "latency_by_window_ms": by_window(tally),
        "turn_wait_ms": spread([x * 1000 for x in tally.turn_waits]),
        "table_wait_ms": spread([x * 1000 for x in tally.table_waits]),
        "games_finished_by_people": tally.games_finished,
        "page_frames": tally.page_frames,
        "polls": tally.polls,
        "polls_found_table": tally.polls_found_table,
        "reopened_tables": tally.reopened_tables,
        "errors": sum(tally.errors.values()),
        "error_kinds": dict(tally.errors.most_common(5)),
        "stalled_tables": tally.stalls,
        "people_done": tally.people_done,
        "people_cut_off": tally.people_cut_off,
        "server_cpu_ms_per_human_move": round(cpu * 1000 / tally.human_moves, 2)
        if cpu and tally.human_moves
        else None,
        "load_1min": {
            "min": round(min(tally.loads), 2) if tally.loads else None,
            "max": round(max(tally.loads), 2) if tally.loads else None,
            "mean": round(sum(tally.loads) / len(tally.loads), 2) if tally.loads else None,
        },
        "cores": os.cpu_count(),
        "settings": os.environ.get("DJANGO_SETTINGS_MODULE"),  # the server's, too
        "debug": settings.DEBUG,
        "check": tournament_check(tournament.pk),
        **query_figures(query_log),
    }
