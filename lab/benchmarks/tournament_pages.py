"""Tournament pages at scale (``manage.py bench_tournaments``): seed finished tournaments in
bulk (each with its entries, standings as after play), then time ``/tournaments/`` and a
tournament's page (as a visitor and as one of its players) with Django's test client, and
count each page's queries."""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.utils import timezone

from lab.benchmarks.pages import queries_of
from tournaments.models import Entry, Tournament

PREFIX = "bench-tournament"


def seed(tournaments: int = 1000, entries: int = 30, people: int = 300) -> int:
    """Make ``tournaments`` finished tournaments of ``entries`` entries each (drawn from
    ``people`` benchmark users), unless there are that many already; how many it made."""
    have = Tournament.objects.filter(name__startswith=PREFIX).count()
    if have >= tournaments:
        return 0
    rng = random.Random(28)
    User = get_user_model()
    names = [f"{PREFIX}-p{i}" for i in range(max(people, entries))]
    existing = set(User.objects.filter(username__in=names).values_list("username", flat=True))
    User.objects.bulk_create([User(username=name) for name in names if name not in existing])
    users = list(User.objects.filter(username__in=names).values_list("pk", flat=True))
    start = timezone.now() - timedelta(days=tournaments + 1)
    with transaction.atomic():
        made = Tournament.objects.bulk_create(
            [
                Tournament(
                    name=f"{PREFIX} {n}",
                    kind=Tournament.Kind.SWISS if n % 2 else Tournament.Kind.ARENA,
                    starts_at=start + timedelta(days=n),
                    ends_at=start + timedelta(days=n, hours=1),
                    rounds=5,
                    current_round=5,
                    status=Tournament.Status.FINISHED,
                )
                for n in range(have, tournaments)
            ],
            batch_size=1000,
        )
        rows = []
        for tournament in made:
            for user_id in rng.sample(users, entries):
                games = rng.randint(3, 12)
                wins = rng.randint(0, games)
                rows.append(
                    Entry(
                        tournament=tournament,
                        user_id=user_id,
                        games=games,
                        wins=wins,
                        points=4 * wins + rng.randint(0, 2 * (games - wins)),
                        game_points=rng.randint(0, 10 * games),
                    )
                )
        Entry.objects.bulk_create(rows, batch_size=5000)
    return len(made)


def pages() -> list[tuple[str, str, int | None]]:
    """(name, url, user id or None) of each page timed: the list, a tournament's page in the
    middle of the seeded ones as a visitor and as one of its players."""
    seeded = Tournament.objects.filter(name__startswith=PREFIX).order_by("pk")
    count = seeded.count()
    middle = seeded[count // 2 : count // 2 + 1].first()
    player = Entry.objects.filter(tournament=middle).values_list("user_id", flat=True).first()
    return [
        ("list", "/tournaments/", None),
        ("tournament (visitor)", middle.get_absolute_url(), None),
        ("tournament (player)", middle.get_absolute_url(), player),
        ("tournament live partial", middle.get_absolute_url() + "#htmx", player),
    ]


def bench(requests: int = 50, out=None) -> list[dict]:
    results = []
    for name, url, user_id in pages():
        client = Client(HTTP_HOST="localhost")
        if user_id is not None:
            client.force_login(get_user_model().objects.get(pk=user_id))
        if url.endswith("#htmx"):  # the partial the page polls
            url = url.removesuffix("#htmx")
            client.defaults["HTTP_HX_REQUEST"] = "true"
        status, queries = queries_of(client, url)
        times = []
        for _ in range(requests):
            began = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - began) * 1000)
        times.sort()
        result = {
            "page": name,
            "status": status,
            "queries": queries,
            "p50_ms": round(statistics.median(times), 1),
            "p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 1),
        }
        if out is not None:
            out.write(
                f"{name:26} {status} p50 {result['p50_ms']:6.1f} ms  "
                f"p95 {result['p95_ms']:6.1f} ms  {queries:2d} queries"
            )
        results.append(result)
    return results
