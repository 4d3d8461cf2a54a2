"""Abuse against a real server, and what normal players feel meanwhile.

One server in production settings (debug off, the real password hasher, the site's own
``coins_site.serve``, behind a trusted proxy: the benchmark, which writes each attacker's
address into ``X-Forwarded-For``) serves the site. Two normal players play all along: one
against medium bots (the latency from their card to their board) and one against hard bots
(the wait for their next turn, which includes the hard bots' thinking). Meanwhile the
benchmark repeats every attack a review measured, as bursts of 50 at once: log-ins,
sign-ups, resets, password changes, tables, floods of messages and of sockets, 500
watchers, hints from many accounts. Beside each it prints the normal players' p50/p95
during the attack and how that compares with a quiet spell before.
"""

from __future__ import annotations

import asyncio
import secrets
import tempfile
import time
from pathlib import Path

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from accounts.benchmarks import forget_failures, hashing_flood
from games.models import Game
from games.table import seats as services
from games.table.options import QUICK_PLAY_BOT
from lab.benchmarks import abuse_http, abuse_sockets
from lab.benchmarks.servers import DaphneServer, logged_in_session
from lab.benchmarks.table_figures import percentile
from lab.benchmarks.tables import Tally, play_table

PASSWORD = "bench-Abuse-pass-42"
STEP_SECONDS = 12.0  # each attack's window: the attack, then quiet up to this long
QUIET_SECONDS = 24.0


class People:
    """The benchmark's accounts: victims, attackers' own accounts, and the normal players."""

    def __init__(self, run: str, hinters: int = 20):
        users = get_user_model().objects
        make = users.create_user
        self.victim = make(f"abuse{run}victim", f"victim{run}@example.com", PASSWORD)
        self.rotated = make(f"abuse{run}rotated", password=PASSWORD)
        self.staff = make(f"abuse{run}staff", password=PASSWORD, is_staff=True)
        self.opener = make(f"abuse{run}opener", password=PASSWORD)
        self.changer = make(f"abuse{run}changer", password=PASSWORD)
        self.flooder = make(f"abuse{run}flooder")
        self.medium = make(f"abuse{run}medium")
        self.hard = make(f"abuse{run}hard")
        self.watched = make(f"abuse{run}watched")
        self.hinters = [make(f"abuse{run}hint{n}") for n in range(hinters)]


def window(tally: Tally, start: float, end: float, waits: bool = False) -> list[float]:
    values, moments = (
        (tally.turn_waits, tally.turn_wait_at) if waits else (tally.latencies, tally.latency_at)
    )
    return [v * 1000 for v, at in zip(values, moments, strict=True) if start <= at <= end]


def spread(values: list[float], quiet_p95: float | None = None) -> dict:
    p95 = round(percentile(values, 0.95), 1) if values else None
    figures = {
        "n": len(values),
        "p50_ms": round(percentile(values, 0.5), 1) if values else None,
        "p95_ms": p95,
    }
    if quiet_p95 and p95:
        figures["p95_vs_quiet"] = round(p95 / quiet_p95, 2)
    return figures


def benchmark(hinters: int = 20, watchers: int = 500) -> dict:
    """Run every attack against one fresh server; return the figures by step."""
    run = secrets.token_hex(3)
    people = People(run, hinters)
    log_dir = Path(tempfile.mkdtemp())
    mail_dir = log_dir / "mail"
    mail_dir.mkdir()
    server = DaphneServer(
        log_dir / "queries.log",
        bot_pause=0.0,
        extra_env={
            "EMAIL_FILE_PATH": str(mail_dir),
            "DJANGO_DEBUG": "0",
        },
    )
    base, ws_base = f"http://127.0.0.1:{server.port}", f"ws://127.0.0.1:{server.port}"
    sessions = {user.pk: logged_in_session(user) for user in [people.flooder, *people.hinters]}
    hint_tables = [
        services.game_create(
            creator=user, target=99, seat_kinds=["me", "random", "random"], is_rated=False
        ).pk
        for user in people.hinters
    ]
    windows: dict[str, tuple[float, float]] = {}
    results: dict = {}

    def http_steps():
        return [
            ("login_burst", lambda: abuse_http.login_burst(base, people.victim.username, PASSWORD)),
            (
                "admin_login_burst",
                lambda: abuse_http.login_burst(
                    base, people.staff.username, PASSWORD, path="/admin/login/"
                ),
            ),
            ("login_spray", lambda: abuse_http.login_spray(base)),
            ("address_rotation", lambda: abuse_http.rotation_burst(base, people.rotated.username)),
            ("signup_burst", lambda: abuse_http.signup_burst(base, run, PASSWORD)),
            ("reset_burst", lambda: abuse_http.reset_burst(base, people.victim.email, mail_dir)),
            (
                "hashing_flood",
                lambda: hashing_flood(
                    base,
                    people.changer.username,
                    PASSWORD,
                    parallel=50,
                    seconds=8.0,
                    address_of=lambda n: f"{abuse_http.NET}{100 + n}",  # 50 machines
                ),
            ),
            ("table_burst", lambda: abuse_http.table_burst(base, people.opener.username, PASSWORD)),
        ]

    async def socket_steps(flood_table: int, watched_table: int):
        flooder = sessions[people.flooder.pk]
        hinting = [
            (game, sessions[u.pk]) for game, u in zip(hint_tables, people.hinters, strict=True)
        ]
        return [
            ("message_flood", abuse_sockets.message_flood(ws_base, flooder, flood_table, base)),
            ("socket_pile", abuse_sockets.pile(ws_base, flooder, flood_table, base)),
            ("anonymous_flood", abuse_sockets.anonymous_flood(ws_base, flood_table, base)),
            ("watchers", abuse_sockets.watchers(ws_base, watched_table, base, count=watchers)),
            ("hint_flood", abuse_sockets.hint_flood(ws_base, base, hinting)),
        ]

    async def timed(name: str, work) -> None:
        start = time.monotonic()
        results[name] = await work
        await asyncio.sleep(max(0.0, start + STEP_SECONDS - time.monotonic()))
        windows[name] = (start, time.monotonic())

    async def main() -> tuple[Tally, Tally, Tally]:
        medium, hard, watched = Tally(), Tally(), Tally()
        deadline = time.monotonic() + 3600
        players = [
            asyncio.create_task(
                play_table(
                    base=ws_base,
                    session_key=await sync_to_async(logged_in_session)(user),
                    user=user,
                    think=think,
                    deadline=deadline,
                    tally=tally,
                    origin=base,
                    bot=bot,
                    address=address,
                    target=target,
                )
            )
            for user, tally, bot, address, target, think in (
                (people.medium, medium, QUICK_PLAY_BOT, "198.51.100.1", 10, 0.5),
                (people.hard, hard, "expert-v4", "198.51.100.2", 10, 0.5),
                # one long game (to 99, at a card every 2 s), which 500 watch later on
                (people.watched, watched, QUICK_PLAY_BOT, "198.51.100.3", 99, 2.0),
            )
        ]
        await timed("quiet", asyncio.sleep(QUIET_SECONDS - STEP_SECONDS))
        for name, step in http_steps():
            await timed(name, asyncio.to_thread(step))
        flood_table = await sync_to_async(services.game_create)(
            creator=people.flooder, target=10, seat_kinds=["me", "careful", "careful"]
        )
        watched_table = await sync_to_async(current_game)(people.watched)
        for name, step in await socket_steps(flood_table.pk, watched_table):
            await timed(name, step)
        for player in players:
            player.cancel()
        return medium, hard, watched

    forget_failures()
    try:
        medium, hard, watched = asyncio.run(main())
    finally:
        server.stop()
    results["reset_burst"]["mails_sent"] = abuse_http.mails_in(mail_dir)
    results["table_burst"]["running_games"] = Game.objects.filter(
        seats__user=people.opener, status=Game.Status.IN_PROGRESS
    ).count()
    results["table_burst"]["waiting_tables"] = Game.objects.filter(
        created_by=people.opener, status=Game.Status.WAITING
    ).count()
    results["signup_burst"]["accounts_made"] = (
        get_user_model().objects.filter(username__startswith=f"abuse{run}s").count()
    )
    quiet = windows["quiet"]
    quiet_medium = spread(window(medium, *quiet))
    quiet_hard = spread(window(hard, *quiet, waits=True))
    quiet_watched = spread(window(watched, *quiet))
    figures = {}
    for name, span in windows.items():
        figures[name] = {
            **({} if name == "quiet" else {"attack": results[name]}),
            "medium_player_latency": spread(window(medium, *span), quiet_medium["p95_ms"]),
            "hard_player_turn_wait": spread(window(hard, *span, waits=True), quiet_hard["p95_ms"]),
        }
        if name in ("quiet", "watchers"):  # the player the 500 watch
            figures[name]["watched_player_latency"] = spread(
                window(watched, *span), quiet_watched["p95_ms"]
            )
    return figures


def current_game(user) -> int:
    """The game the person is playing now."""
    return (
        Game.objects.filter(seats__user=user, status=Game.Status.IN_PROGRESS)
        .order_by("-created_at")
        .values_list("pk", flat=True)
        .first()
    )
