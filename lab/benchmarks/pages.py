"""Time the site's read pages against whatever is in the database (``manage.py bench_pages``).

The pages are found from the data: the player with the most games (a "heavy" player), a
typical one (the median), a game, and each leaderboard, each at its first page, a deep page
and its last. Every request goes through the whole Django stack in this process (middleware,
view, template), as Daphne would serve it; the queries of each kind are counted on one
request, then ``requests`` more are timed. With ``daphne=True`` the timed requests go over
HTTP to a Daphne this run starts (the site's server, its settings, its table runner), from
the first byte sent to the last byte read.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.admin_paging import CAP
from games.history.games import KEYS as HISTORY_KEYS
from games.models import Game, PlayerStats, Seat

STAFF = "bench-staff"


@dataclass(frozen=True)
class PageKind:
    name: str
    url: str
    staff: bool = False


def _player(order: str, median: bool = False):
    stats = PlayerStats.objects.order_by(order, "user_id")
    if median:
        count = stats.count()
        row = stats[count // 2 : count // 2 + 1].first() if count else None
    else:
        row = stats.first()
    return get_user_model().objects.get(pk=row.user_id) if row else None


def _middle_cursor(user) -> str:
    """A cursor halfway down ``user``'s history (a deep page)."""
    seats = Seat.objects.filter(user=user, started_at__isnull=False).order_by(
        "-started_at", "-game_id"
    )
    count = seats.count()
    seat = seats[count // 2 : count // 2 + 1].first()
    return HISTORY_KEYS.cursor(seat) if seat else ""


def page_kinds(deep: int = 100) -> list[PageKind]:
    """Every kind of read page, with the URLs this database makes heaviest (``deep``: the
    page number of the deep leaderboard and admin pages)."""
    from ratings.models import Leaderboard

    kinds = [PageKind("lobby", "/games/")]
    for board in Leaderboard.objects.filter(is_public=True).order_by("slug")[:3]:
        base = f"/leaderboards/{board.slug}/"
        kinds += [
            PageKind(f"leaderboard {board.slug} p1", base),
            PageKind(f"leaderboard {board.slug} p{deep}", f"{base}?page={deep}"),
            PageKind(f"leaderboard {board.slug} last", f"{base}?page=last"),
        ]
    heavy, typical = _player("-finished"), _player("finished", median=True)
    game = Game.objects.filter(status=Game.Status.FINISHED).order_by("-pk").first()
    if heavy is not None:
        name = heavy.get_username()
        history = f"/players/{name}/games/"
        kinds += [
            PageKind("history heavy p1", history),
            PageKind("history heavy middle", f"{history}?after={_middle_cursor(heavy)}"),
            PageKind("history heavy oldest", f"{history}?page=last"),
            PageKind("history heavy won", f"{history}?result=won"),
            PageKind("history heavy people", f"{history}?opponents=humans"),
            PageKind("history heavy target 15", f"{history}?target=15"),
            PageKind("history heavy lost, oldest", f"{history}?result=lost&page=last"),
            PageKind("profile heavy", f"/players/{name}/"),
            PageKind("admin games of heavy", f"/admin/games/game/?player={heavy.pk}", True),
            PageKind("admin search heavy", f"/admin/games/game/?q={name}", True),
            # one letter: every person's username may start with it
            PageKind("admin search broad", f"/admin/games/game/?q={name[0]}", True),
            PageKind("admin user heavy", f"/admin/auth/user/{heavy.pk}/change/", True),
            PageKind("admin users, search heavy", f"/admin/auth/user/?q={name}", True),
            PageKind("admin users, search broad", f"/admin/auth/user/?q={name[0]}", True),
            PageKind("admin ratings, search heavy", f"/admin/ratings/playerrating/?q={name}", True),
        ]
    if typical is not None:
        name = typical.get_username()
        kinds += [
            PageKind("history typical p1", f"/players/{name}/games/"),
            PageKind("profile typical", f"/players/{name}/"),
        ]
    if game is not None:
        kinds += [
            PageKind("replay", f"/games/{game.pk}/replay/"),
            PageKind("record", f"/games/{game.pk}/record.json"),
            PageKind("admin game", f"/admin/games/game/{game.pk}/change/", True),
        ]
    kinds += [
        PageKind("admin games", "/admin/games/game/", True),
        PageKind("admin games last counted page", f"/admin/games/game/?p={CAP // 50}", True),
        PageKind("admin games with bots", "/admin/games/game/?players=bots", True),
        PageKind("admin games people only", "/admin/games/game/?players=humans", True),
        PageKind("admin rating events", "/admin/ratings/ratingevent/", True),
        PageKind("admin ratings", "/admin/ratings/playerrating/", True),
    ]
    listed = {kind.url for kind in kinds}
    kinds += [kind for kind in admin_lists() if kind.url not in listed]
    return kinds


def admin_lists() -> list[PageKind]:
    """The first page of every list the admin has (each registered model's changelist)."""
    from django.contrib import admin

    kinds = []
    for model in admin.site._registry:
        meta = model._meta
        url = f"/admin/{meta.app_label}/{meta.model_name}/"
        kinds.append(PageKind(f"admin list {meta.app_label}.{meta.model_name}", url, True))
    return sorted(kinds, key=lambda kind: kind.name)


def clients() -> tuple[Client, Client]:
    """A visitor and a staff member (made if missing), both as a browser on localhost."""
    visitor, admin = Client(HTTP_HOST="localhost"), Client(HTTP_HOST="localhost")
    admin.force_login(admin_user())
    return visitor, admin


def admin_user():
    """The benchmark's staff member (made if missing; no password: nobody logs in as it)."""
    User = get_user_model()
    staff = User.objects.filter(username=STAFF).first()
    return staff or User.objects.create_superuser(STAFF, password=None)


def queries_of(client: Client, url: str) -> tuple[int, int]:
    """The status and number of queries of one request."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response.status_code, len(queries)


def bench(requests: int = 50, only: str = "", out=None, daphne: bool = False) -> list[dict]:
    server = None
    if daphne:
        from lab.benchmarks.servers import DaphneServer, logged_in_session, use_a_key_of_our_own

        use_a_key_of_our_own()  # before any session is made: the server checks them with it
        staff_cookie = f"{settings.SESSION_COOKIE_NAME}={logged_in_session(admin_user())}"
        server = DaphneServer(Path(tempfile.mkdtemp()) / "queries.log")
    visitor, admin = clients()
    results = []
    try:
        for kind in page_kinds():
            if only and only not in kind.name:
                continue
            client = admin if kind.staff else visitor
            status, queries = queries_of(client, kind.url)
            if server is None:
                get = partial(client.get, kind.url)
            else:
                url = f"http://127.0.0.1:{server.port}{kind.url}"
                get = partial(_http_get, url, staff_cookie if kind.staff else "")
                status = get()  # what the server answers (and its first request of a kind)
            times = []
            cpu_before = _cpu_seconds(server)
            for _ in range(requests):
                began = time.perf_counter()
                get()
                times.append((time.perf_counter() - began) * 1000)
            cpu_ms = (_cpu_seconds(server) - cpu_before) * 1000 / requests
            results.append(_figures(kind, status, queries, times, cpu_ms, out))
    finally:
        if server is not None:
            server.stop()
    return results


def _cpu_seconds(server) -> float:
    """CPU time of the process serving the requests: the Daphne's (from ``/proc``) or, in
    this process, this process's own."""
    if server is None:
        return time.process_time()
    with open(f"/proc/{server.process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _http_get(url: str, cookie: str) -> int:
    """One GET over HTTP, the whole body read; its status (a 4xx/5xx one raises)."""
    headers = {"Cookie": cookie} if cookie else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
        response.read()
        return response.status


def _figures(
    kind: PageKind, status: int, queries: int, times: list[float], cpu_ms: float, out
) -> dict:
    times.sort()
    result = {
        "page": kind.name,
        "url": kind.url,
        "status": status,
        "queries": queries,
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 1),
        "max_ms": round(times[-1], 1),
        "cpu_ms": round(cpu_ms, 1),
    }
    if out is not None:
        out.write(
            f"{kind.name:32} {status:>3} p50 {result['p50_ms']:7.1f} ms  "
            f"p95 {result['p95_ms']:7.1f} ms  {queries:2d} queries  "
            f"CPU {result['cpu_ms']:5.1f} ms"
        )
    return result
