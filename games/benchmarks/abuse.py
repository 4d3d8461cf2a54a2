"""Abuse against a real server, and what a normal player feels meanwhile.

One Daphne (with its table runner) serves the site. While a normal player plays a table
against bots (thinking 1 s per card, timed as in ``bench_tables``), the benchmark repeats
the abuse a review measured: log-in and sign-up bursts, reset-mail bursts, one account
opening tables as fast as it can, sockets flooding messages, hundreds of sockets on one
table, a hint storm. Each step reports what was tried and what was refused.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import re
import secrets
import statistics
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import websockets
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from games import services
from games.models import Game

from .tables import DaphneServer, Tally, logged_in_session, percentile, play_table

PASSWORD = "bench-Abuse-pass-42"
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Browser:
    """A cookie-keeping HTTP client that fills in CSRF tokens like a browser's forms."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def get(self, path: str) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict, form_path: str | None = None) -> tuple[int, str]:
        _, page = self.get(form_path or path)
        token = CSRF.search(page)
        fields = {**data, "csrfmiddlewaretoken": token.group(1) if token else ""}
        request = urllib.request.Request(
            self.base + path,
            data=urllib.parse.urlencode(fields).encode(),
            headers={"Referer": self.base + path, "Origin": self.base},
        )
        return self._open(request)

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 302 is an answer here: the form was accepted


def login_burst(base: str, username: str, path: str = "/accounts/login/") -> dict:
    """30 wrong passwords for one account, then the right one."""
    browser = Browser(base)
    statuses = [
        browser.post(path, {"username": username, "password": "wrong"})[0] for _ in range(30)
    ]
    right = browser.post(path, {"username": username, "password": PASSWORD})[0]
    return {
        "tried": 31,
        "refused": statuses.count(429) + (right == 429),
        "right_password_logged_in": right == 302,
    }


def signup_burst(base: str, run: str) -> dict:
    """20 sign-ups from one address."""
    statuses = []
    for n in range(20):
        browser = Browser(base)
        name = f"abuse-{run}-s{n}"
        statuses.append(
            browser.post(
                "/accounts/signup/",
                {"username": name, "password1": PASSWORD, "password2": PASSWORD},
            )[0]
        )
    return {"tried": 20, "created": statuses.count(302), "refused": statuses.count(429)}


def reset_burst(base: str, email: str, mail_dir: Path) -> dict:
    """10 password-reset requests for one e-mail address (the server writes its mails to
    files in ``mail_dir``)."""
    browser = Browser(base)
    statuses = [browser.post("/accounts/password/reset/", {"email": email})[0] for _ in range(10)]
    time.sleep(0.5)
    sent = sum(path.read_text(errors="replace").count("Subject:") for path in mail_dir.iterdir())
    return {"tried": 10, "answered_as_usual": statuses.count(302), "mails_sent": sent}


def table_burst(base: str, username: str) -> dict:
    """One account opens 60 waiting tables and 30 quick games as fast as it can."""
    browser = Browser(base)
    browser.post("/accounts/login/", {"username": username, "password": PASSWORD})
    table = {"target": "10", "seat_left": "open", "seat_right": "careful", "is_public": "public"}
    opened = [browser.post("/games/new/", table)[0] for _ in range(60)]
    quick = [browser.post("/games/quick-play/", {}, form_path="/games/")[0] for _ in range(30)]
    _, lobby = browser.get("/games/")
    return {
        "tables_tried": 60,
        "tables_opened": opened.count(302),
        "quick_games_tried": 30,
        "quick_play_answers": len(quick),  # a refusal redirects too: started games are
        # counted from the database afterwards
        "listed_in_lobby_for_them": lobby.count(f">{username}<"),
    }


async def socket_flood(ws_base: str, session: str, game_id: int, origin: str) -> dict:
    """5 sockets of one person each send 5,000 messages as fast as they can."""
    headers = {"Cookie": f"sessionid={session}", "Origin": origin}
    counts = {"sent": 0, "answers": 0, "slow_down": 0, "closed_4429": 0}
    started = time.perf_counter()

    async def flood():
        async with websockets.connect(
            f"{ws_base}/ws/games/{game_id}/", additional_headers=headers
        ) as ws:
            await ws.recv()
            try:
                for _ in range(5000):
                    await ws.send('{"card": "13O"}')
                    counts["sent"] += 1
                while True:
                    frame = await asyncio.wait_for(ws.recv(), 5)
                    counts["answers"] += 1
                    counts["slow_down"] += "Slow down" in frame
            except websockets.ConnectionClosed as closed:
                counts["closed_4429"] += closed.rcvd is not None and closed.rcvd.code == 4429
            except TimeoutError:
                pass

    await asyncio.gather(*(flood() for _ in range(5)))
    counts["seconds"] = round(time.perf_counter() - started, 2)
    return counts


async def socket_pile(ws_base: str, session: str, game_id: int, origin: str) -> dict:
    """300 sockets on one table from one session."""
    headers = {"Cookie": f"sessionid={session}", "Origin": origin}
    opened, refused, sockets = 0, 0, []
    for _ in range(300):
        ws = await websockets.connect(f"{ws_base}/ws/games/{game_id}/", additional_headers=headers)
        try:
            await asyncio.wait_for(ws.recv(), 5)
            opened += 1
            sockets.append(ws)
        except websockets.ConnectionClosed:
            refused += 1
    for ws in sockets:
        await ws.close()
    return {"tried": 300, "served": opened, "refused_4409": refused}


async def hint_storm(ws_base: str, session: str, game_id: int, origin: str) -> dict:
    """30 hint requests from one person, over three sockets, in a second."""
    headers = {"Cookie": f"sessionid={session}", "Origin": origin}
    counts = {"asked": 0, "hints": 0, "refused": 0}

    async def ask():
        async with websockets.connect(
            f"{ws_base}/ws/games/{game_id}/", additional_headers=headers
        ) as ws:
            await ws.recv()
            for _ in range(10):
                await ws.send('{"hint": "1"}')
                counts["asked"] += 1
                await asyncio.sleep(0.03)
            try:
                while True:
                    frame = await asyncio.wait_for(ws.recv(), 3)
                    counts["hints"] += "table-message hint" in frame
                    counts["refused"] += "hints this minute" in frame or "on its way" in frame
            except TimeoutError:
                pass

    await asyncio.gather(*(ask() for _ in range(3)))
    return counts


def benchmark(seconds_between: float = 2.0) -> dict:
    """Run every abuse step against one fresh server; return the figures."""
    run = secrets.token_hex(3)
    users = get_user_model().objects
    victim = users.create_user(f"abuse-{run}-victim", f"victim-{run}@example.com", PASSWORD)
    staff = users.create_user(f"abuse-{run}-staff", password=PASSWORD, is_staff=True)
    opener = users.create_user(f"abuse-{run}-opener", password=PASSWORD)
    flooder = users.create_user(f"abuse-{run}-flooder", password=PASSWORD)
    normal = users.create_user(f"abuse-{run}-normal", password=PASSWORD)
    log_dir = Path(tempfile.mkdtemp())
    mail_dir = log_dir / "mail"
    mail_dir.mkdir()
    server = DaphneServer(
        log_dir / "queries.log", bot_pause=0.8, extra_env={"EMAIL_FILE_PATH": str(mail_dir)}
    )
    base = f"http://127.0.0.1:{server.port}"
    ws_base = f"ws://127.0.0.1:{server.port}"
    results: dict = {}

    async def abuse():
        await asyncio.sleep(seconds_between)
        steps = [
            ("login_burst", lambda: login_burst(base, victim.username)),
            (
                "admin_login_burst",
                lambda: login_burst(base, staff.username, path="/admin/login/"),
            ),
            ("signup_burst", lambda: signup_burst(base, run)),
            ("reset_burst", lambda: reset_burst(base, victim.email, mail_dir)),
            ("table_burst", lambda: table_burst(base, opener.username)),
        ]
        for name, step in steps:
            results[name] = await asyncio.to_thread(step)
            await asyncio.sleep(seconds_between)
        session = await sync_to_async(logged_in_session)(flooder)
        game = await sync_to_async(services.game_create)(
            creator=flooder, target=10, seat_kinds=["me", "careful", "careful"], is_rated=False
        )
        for name, step in (
            ("socket_flood", socket_flood),
            ("socket_pile", socket_pile),
            ("hint_storm", hint_storm),
        ):
            results[name] = await step(ws_base, session, game.pk, base)
            await asyncio.sleep(seconds_between)

    async def main():
        tally = Tally()
        session = await sync_to_async(logged_in_session)(normal)
        player = asyncio.create_task(
            play_table(
                base=ws_base,
                session_key=session,
                user=normal,
                think=1.0,
                deadline=time.monotonic() + 3600,
                tally=tally,
                origin=base,
                bot=services.QUICK_PLAY_BOT,
            )
        )
        await abuse()
        player.cancel()
        return tally

    try:
        tally = asyncio.run(main())
    finally:
        server.stop()
    results["table_burst"]["quick_games_started"] = Game.objects.filter(
        seats__user=opener, status=Game.Status.IN_PROGRESS
    ).count()
    latencies = [x * 1000 for x in tally.latencies]
    results["normal_player"] = {
        "moves": len(latencies),
        "latency_ms_p50": round(percentile(latencies, 0.5), 1) if latencies else None,
        "latency_ms_p95": round(percentile(latencies, 0.95), 1) if latencies else None,
        "latency_ms_max": round(max(latencies), 1) if latencies else None,
        "latency_ms_mean": round(statistics.fmean(latencies), 1) if latencies else None,
        "errors": sum(tally.errors.values()),
    }
    return json.loads(json.dumps(results))
