"""Measure the ratings recompute (``manage.py bench_recompute``): its speed in games per
second, how long its swap holds the rating lock, and, with a table runner of its own serving
the recompute, how late the next bot card comes at another table while a game ends.

The games are inserted directly (a game and its seats: what a rating reads), far faster than
``seed_scale`` plays them; people and bots sit as in the seeder's mix.
"""

from __future__ import annotations

import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection
from django.utils import timezone

from common.bulk_rows import rows_insert
from games.engine import CARD_CODES
from games.models import Game, Seat
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from lab.benchmarks.seed import people_make
from ratings.models import RatingsRecompute
from ratings.recompute import chunk_committed, ratings_recompute

BOTS = ("careful", "random", "heuristic")
BATCH = 5000


def finished_games_insert(games: int, people: int, seed: str = "recompute") -> None:
    """Add ``games`` finished rated games among ``people`` people and bots, ended one a
    minute up to now, with their seats (scores, a winner, now and then a leaver)."""
    rng = random.Random(seed)
    users = people_make(people, "rc")
    now = timezone.now()
    next_game = (Game.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    next_seat = (Seat.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    for first in range(0, games, BATCH):
        batch_games, batch_seats = [], []
        for n in range(first, min(first + BATCH, games)):
            ended = now - timedelta(minutes=games - n)
            humans = rng.choice((1, 1, 2, 3))
            players = rng.sample(users, humans) + [rng.choice(BOTS) for _ in range(3 - humans)]
            scores = [rng.randint(0, 9) for _ in range(3)]
            winner = rng.randrange(3)
            scores[winner] = 10
            game = Game(
                id=next_game,
                target=10,
                status=Game.Status.FINISHED,
                is_public=True,
                is_rated=True,
                invite_token=secrets.token_urlsafe(16),
                seed=str(n),
                first_dealer=0,
                winner_seat=winner,
                moves=48,
                with_bots=humans < 3,
                created_at=ended - timedelta(minutes=10),
                started_at=ended - timedelta(minutes=10),
                finished_at=ended,
                updated_at=ended,
            )
            batch_games.append(game)
            for number, (player, score) in enumerate(zip(players, scores, strict=True)):
                person = isinstance(player, int)
                batch_seats.append(
                    Seat(
                        id=next_seat,
                        game_id=next_game,
                        number=number,
                        user_id=player if person else None,
                        bot="" if person else player,
                        score=score,
                        started_at=game.started_at,
                        target=10,
                        with_bots=game.with_bots,
                        outcome="won" if number == winner else "lost",
                        stand_in="careful" if person and rng.random() < 0.02 else "",
                    )
                )
                next_seat += 1
            next_game += 1
        rows_insert(Game, batch_games)
        rows_insert(Seat, batch_seats)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Game, Seat]):
            cursor.execute(sql)


def recompute_timed() -> dict:
    """Run one recompute here; its games, seconds, games per second through the chunks, and
    the seconds of the swap (from the last chunk's commit to the end)."""
    last_chunk = []
    chunk_committed.connect(
        lambda sender, request, **kwargs: last_chunk.append(time.perf_counter()),
        weak=False,
        dispatch_uid="bench.recompute",
    )
    try:
        server_before, cpu_before = _server_cpu(), time.process_time()
        began = time.perf_counter()
        rated = ratings_recompute()
        ended = time.perf_counter()
        cpu = time.process_time() - cpu_before + _server_cpu() - server_before
    finally:
        chunk_committed.disconnect(dispatch_uid="bench.recompute")
    chunks = (last_chunk[-1] if last_chunk else ended) - began
    request = RatingsRecompute.objects.order_by("-pk").first()
    return {
        "games": request.games_total,
        "rated": rated,
        "seconds": round(ended - began, 2),
        "chunks_seconds": round(chunks, 2),
        "games_per_second": round(request.games_total / chunks) if chunks else None,
        "overall_games_per_second": round(request.games_total / (ended - began)),
        "swap_seconds": round(ended - (last_chunk[-1] if last_chunk else began), 2),
        "cpu_seconds": round(cpu, 2),  # this process and its database backend
        "games_per_cpu_second": round(request.games_total / cpu) if cpu else None,
        "load_average": os.getloadavg()[0],
    }


def _server_cpu() -> float:
    """CPU seconds used so far by this connection's PostgreSQL backend (a local server: read
    from /proc), else 0."""
    if connection.vendor != "postgresql":
        return 0.0
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bot_delays_during_recompute(
    *, pause: float = 0.05, every: float = 1.0, baseline: float = 0.0
) -> dict:
    """Start a table runner of its own (``manage.py run_tables``) and ask it for a recompute;
    while it runs, end a rated game now and then and play a person's card at another table,
    timing the bot's answer (from the card to the bot's card, less the bot's ``pause``).
    ``baseline`` seconds: the same without a recompute, for comparison."""
    env = {**os.environ, "COINS_BOT_PAUSE": str(pause)}
    settings.COINS_BOT_PAUSE = pause  # the person's card schedules the bot's here
    runner = subprocess.Popen(
        [sys.executable, "manage.py", "run_tables"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    delays, ended_games = [], 0
    try:
        prefix = f"rc-bench-{int(time.time())}"  # a new person: no tables left open
        person = get_user_model().objects.get(pk=people_make(1, prefix)[0])
        began = time.monotonic()
        if baseline:
            time.sleep(2)  # the runner starts

            def busy() -> bool:
                return time.monotonic() < began + baseline
        else:
            request = RatingsRecompute.objects.create()
            while not RatingsRecompute.objects.filter(pk=request.pk, games_done__gt=0).exists():
                time.sleep(0.05)  # the runner begins it within a second or so

            def busy() -> bool:
                return RatingsRecompute.objects.filter(pk=request.pk, finished_at=None).exists()

        started = time.monotonic()
        while busy():
            ending = services.game_create(
                creator=person, target=10, seat_kinds=["me", "random", "random"]
            )
            flow.resign(game_id=ending.pk, user=person)  # its aftermath: the runner's
            ended_games += 1
            delay = _bot_answer(person, pause)
            if delay is not None and busy():
                delays.append(delay)
            time.sleep(every)
        finished = time.monotonic()
    finally:
        runner.terminate()
        runner.wait(timeout=30)
    return {
        "recompute_seconds": 0 if baseline else round(finished - started, 1),
        "seconds": round(finished - started, 1),
        "games_ended_meanwhile": ended_games,
        "bot_cards_timed": len(delays),
        "bot_delay_p50": round(statistics.median(delays), 3) if delays else None,
        "bot_delay_p90": round(statistics.quantiles(delays, n=10)[-1], 3)
        if len(delays) > 1
        else None,
        "bot_delay_max": round(max(delays), 3) if delays else None,
        "load_average": os.getloadavg()[0],
    }


def _bot_answer(person, pause: float) -> float | None:
    """Play the person's first card at a new table against two bots; seconds until the bot
    after them has played, less the pause (None if a bot led and the person never got the
    turn within a while)."""
    game = services.game_create(creator=person, target=10, seat_kinds=["me", "random", "random"])
    try:
        return _timed_answer(game, person, pause)
    finally:
        flow.resign(game_id=game.pk, user=person)  # another game ends, and she has room


def _timed_answer(game: Game, person, pause: float) -> float | None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        loaded = game_load(Game.objects.get(pk=game.pk))
        seat = loaded.seats[loaded.state.to_play]
        if seat.user_id == person.pk:
            break
        time.sleep(0.01)
    else:
        return None
    moves = Game.objects.get(pk=game.pk).moves
    card = CARD_CODES[loaded.state.hands[seat.number][0]]
    played = time.monotonic()
    flow.play_card(game_id=game.pk, user=person, card=card)
    while time.monotonic() < played + 120:
        now_moves, to_play = Game.objects.filter(pk=game.pk).values_list("moves", "to_play")[0]
        if now_moves > moves + 1:
            return time.monotonic() - played - pause
        if to_play == seat.number:  # she took the trick: no bot card follows hers
            return None
        time.sleep(0.005)
    return None
