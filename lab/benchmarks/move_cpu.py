"""The CPU of a person's card in one process, away from sockets and the event loop: the
socket's database call for a move (``play_and_render``, called as a socket calls it: the
engine, both bots' answers, the one statement, and the mover's board; the lock and the
commit where the card takes them, ``games/table/unlocked.py``), timed with the thread's own
clock over whole games. On our 2-core machine ``bench_tables`` runs its client, PostgreSQL,
Redis and the servers on the same cores, and its CPU figure moves by 10% between runs; this
one moves by a few percent, so it tells whether a change to the move's path paid."""

from __future__ import annotations

import re
import secrets
import statistics
import time
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.test import override_settings
from django.utils import timezone

from games.board.render import socket_request
from games.models import Game
from games.realtime.socket_calls import play_and_render, render_for
from games.table import flow, runner
from games.table import seats as services
from games.table.options import QUICK_PLAY_BOT
from lab.benchmarks.tables import BOARD_MOVES, CARD, HAND

ORIGIN = (b"origin", b"http://127.0.0.1:8000")


def _socket_scope(user) -> dict:
    """What a table socket's handshake gives the server, for ``user`` on this machine."""
    return {
        "type": "websocket",
        "headers": [ORIGIN, (b"host", b"127.0.0.1:8000")],
        "user": user,
        "session": SessionStore(),
        "query_string": b"",
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 8000),
    }


def _new_game(user, bot: str, target: int, scope: dict, presence: dict) -> tuple:
    """A quick play for ``user``: the game, its socket's request and its first board."""
    game = services.game_quick_play(user=user, bot=bot, target=target)
    request = socket_request(scope, game.pk)
    return game, request, _board(game.pk, request, presence)


def _board(game_id: int, request, presence: dict) -> str:
    return render_for(game_id, None, request, None, presence)[0]


def _bots_played(game_id: int) -> None:
    """Play what the table's schedule holds (a bot that leads a new game or hand)."""
    flow.run_due(game_id, now=timezone.now() + timedelta(hours=1))


@override_settings(COINS_BOT_PAUSE=0, COINS_MAX_RUNNING_GAMES=10**6)
def measure(moves: int, bot: str = QUICK_PLAY_BOT, target: int = 10) -> dict:
    """Play games of one new person against two ``bot``s until ``moves`` cards are timed."""
    user = get_user_model().objects.create_user(f"bench-move-{secrets.token_hex(4)}")
    scope, presence = _socket_scope(user), {"users": [user.pk], "anonymous": 0}
    times: list[float] = []
    walls: list[float] = []  # the same calls' wall time: the database's round trips show here
    by_kind: dict[str, list[float]] = {kind: [] for kind in KINDS}
    games = 0
    while len(times) < moves:
        game, request, board = _new_game(user, bot, target, scope, presence)
        games += 1
        while 'id="game-result"' not in board and len(times) < moves:
            if 'data-your-turn="true"' not in board:
                _bots_played(game.pk)
                board = _board(game.pk, request, presence)
                continue
            card = CARD.findall(HAND.search(board).group(0))[0]
            shown = int(BOARD_MOVES.search(board).group(1))  # the socket's last board
            hand = _hand_number(board)
            started, wall = time.thread_time(), time.perf_counter()
            board = play_and_render(
                game.pk, request, card, "bench", presence, {}, game.seed, shown
            )[0]
            times.append(time.thread_time() - started)
            walls.append(time.perf_counter() - wall)
            by_kind[_kind(board, hand)].append(times[-1])
    Game.objects.filter(seats__user=user, status=Game.Status.IN_PROGRESS).update(
        status=Game.Status.ABANDONED, due_at=None
    )  # the last game, cut short: no runner may serve it later
    # nor rate the finished ones: a server benchmarked next would be charged for them
    Game.objects.filter(seats__user=user).exclude(due_at=None).update(due_at=None)
    return {
        "moves": len(times),
        "games": games,
        **_time_figures(times, walls),
        # the rarer cards apart: a hand's last deals the next, a game's last settles it
        "cpu_ms_mean_by_kind": {
            kind: round(1000 * statistics.fmean(spent), 3) if spent else None
            for kind, spent in by_kind.items()
        },
        "cards_by_kind": {kind: len(spent) for kind, spent in by_kind.items()},
    }


@override_settings(COINS_BOT_PAUSE=0.8, COINS_MAX_RUNNING_GAMES=10**6)
def measure_runner(cards: int, bot: str = QUICK_PLAY_BOT, target: int = 10) -> dict:
    """The CPU of a bot's card as the site plays it: bots pause, so a table runner serves
    each of their cards (``runner.claim_and_run_next``: the claim, the card, the write and
    what runs on commit), timed with the thread's clock. A new person plays against two
    ``bot``s, each card as a socket plays it (not timed); each bot card is made due at once,
    its pause skipped, and a finished game's aftermath is served untimed. The process plays
    every card, so its copy of the game is fresh: as a runner serving the cards that its own
    process's socket and runner played before them."""
    user = get_user_model().objects.create_user(f"bench-runner-{secrets.token_hex(4)}")
    scope, presence = _socket_scope(user), {"users": [user.pk], "anonymous": 0}
    times: list[float] = []
    walls: list[float] = []
    games = 0
    while len(times) < cards:
        game, request, board = _new_game(user, bot, target, scope, presence)
        games += 1
        while 'id="game-result"' not in board and len(times) < cards:
            if 'data-your-turn="true"' in board:
                card = CARD.findall(HAND.search(board).group(0))[0]
                shown = int(BOARD_MOVES.search(board).group(1))
                board = play_and_render(
                    game.pk, request, card, "bench", presence, {}, game.seed, shown
                )[0]
                continue
            moves = Game.objects.values_list("moves", flat=True).get(pk=game.pk)
            Game.objects.filter(pk=game.pk).update(due_at=timezone.now() - timedelta(seconds=1))
            started, wall = time.thread_time(), time.perf_counter()
            served = runner.claim_and_run_next()
            spent, waited = time.thread_time() - started, time.perf_counter() - wall
            if served[0] != game.pk or Game.objects.get(pk=game.pk).moves != moves + 1:
                raise RuntimeError(f"the runner served {served}, not one card of {game.pk}")
            times.append(spent)
            walls.append(waited)
            board = _board(game.pk, request, presence)
        while runner.claim_and_run_next()[0] == game.pk:  # its aftermath (queued rating)
            pass
    Game.objects.filter(seats__user=user).exclude(due_at=None).update(
        status=Game.Status.ABANDONED, due_at=None
    )  # the last game, cut short: no runner may serve it later
    return {"cards": len(times), "games": games, **_time_figures(times, walls)}


def _time_figures(times: list[float], walls: list[float]) -> dict:
    """The CPU (mean after the first tenth, which warms the caches; p50, p90) and wall time
    (p50, p90) of timed calls, in ms."""
    warm = times[len(times) // 10 :]
    times, walls = sorted(times), sorted(walls)
    return {
        "cpu_ms_mean": round(1000 * statistics.fmean(warm), 3),
        "cpu_ms_p50": round(1000 * times[len(times) // 2], 3),
        "cpu_ms_p90": round(1000 * times[int(len(times) * 0.9)], 3),
        "wall_ms_p50": round(1000 * walls[len(walls) // 2], 3),
        "wall_ms_p90": round(1000 * walls[int(len(walls) * 0.9)], 3),
    }


KINDS = ("game_end", "hand_end", "other")
HAND_NUMBER = re.compile(r'id="board"[^>]*data-hand="(\d+)"')


def _hand_number(board: str) -> int:
    return int(HAND_NUMBER.search(board).group(1))


def _kind(board: str, hand_before: int) -> str:
    """Which of ``KINDS`` the card whose board this is was."""
    if 'id="game-result"' in board:
        return "game_end"
    return "hand_end" if _hand_number(board) != hand_before else "other"
