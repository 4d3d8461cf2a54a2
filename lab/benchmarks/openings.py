"""What a table's socket costs the server as it opens (``manage.py bench_openings``).

Every new game opens a socket (the next game's page is a page of its own), and so does every
reload and every reconnect after a network blip. In ``bench_tables`` the tables' first games
end together, and the openings of the next games are most of what such a wave costs the
servers (docs/benchmarks.md, twenty-fifth sitting). Here people open sockets to their tables
over and over, each time waiting for the first board and closing the socket, against one
Daphne: the figures are the server's CPU per opening and the wait for the first board.

Each opening comes from an address of its own, as different people's would: the server
limits how many sockets one address may open in a burst. With ``play_now`` each new game is
started as the page's "Play now" does, over HTTP (the form's POST, then the new game's page,
as the browser follows the redirect), before its socket: the whole of what a table's next
game costs its server, and the person's wait from the click to the first board.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import tempfile
import time
from pathlib import Path

from asgiref.sync import sync_to_async

from games.models import Game
from games.table import seats as services
from games.table.options import QUICK_PLAY_BOT
from lab.benchmarks.servers import DaphneServer, new_player, use_a_key_of_our_own
from lab.benchmarks.table_figures import latency_figures
from lab.benchmarks.tables import origin_of, page_client, person_socket, quick_play, retire

BOARD = re.compile(r'id="board"')
FIRST_BOARD_SECONDS = 15  # an opening that shows no board this long has failed


def bench_openings(*, people: int, openings: int, new_games: bool, play_now: bool = False) -> dict:
    """``people`` people each open ``openings`` sockets one after the other: to a new game
    of their own each time (``new_games``: quick play first, then the socket, as after a
    game's end; the server's runner then plays the bots that lead; ``play_now``: the quick
    play and the page over HTTP, timed with the socket) or to the same table (a reload).
    Return the figures."""
    new_games = new_games or play_now
    use_a_key_of_our_own()
    run = secrets.token_hex(3)
    players = [new_player(run, n) for n in range(people)]
    server = DaphneServer(Path(tempfile.mkdtemp()) / "queries.log")
    base = f"ws://127.0.0.1:{server.port}"
    try:
        cpu_before, started = server.cpu_seconds(), time.perf_counter()
        waits = asyncio.run(_open_all(base, players, openings, new_games, play_now))
        elapsed, cpu_after = time.perf_counter() - started, server.cpu_seconds()
    finally:
        server.stop()
        retire(players)
    count = len(waits)
    return {
        "people": people,
        "openings": count,
        "new_games": new_games,
        "play_now": play_now,
        "seconds": round(elapsed, 2),
        "server_cpu_ms_per_opening": round((cpu_after - cpu_before) * 1000 / count, 2)
        if None not in (cpu_before, cpu_after) and count
        else None,
        "first_board_ms": latency_figures([wait * 1000 for wait in waits]),
    }


async def _open_all(
    base: str, players: list, openings: int, new_games: bool, play_now: bool
) -> list[float]:
    waits: list[float] = []
    await asyncio.gather(
        *(
            _open_again_and_again(base, (user, key), number, openings, (new_games, play_now), waits)
            for number, (user, key) in enumerate(players)
        )
    )
    return waits


async def _open_again_and_again(
    base: str, person: tuple, number: int, openings: int, how: tuple, waits: list
) -> None:
    (user, key), (new_games, play_now) = person, how
    game_id = None
    for opening in range(openings):
        address = _address(number, openings, opening)
        started = time.perf_counter()
        if play_now:
            async with page_client(key, address, origin_of(base)) as http:
                game_id = await quick_play(http, QUICK_PLAY_BOT, 10)
        elif new_games or game_id is None:
            game_id = (
                await sync_to_async(services.game_quick_play)(
                    user=user, bot=QUICK_PLAY_BOT, target=10
                )
            ).pk
            started = time.perf_counter()
        await _first_board(base, game_id, key, address)
        if new_games or opening:  # not a reloaded table's first (its game loaded, its bots')
            waits.append(time.perf_counter() - started)
        if new_games:  # leave it as ``retire`` does (the limit of games at once, else)
            await sync_to_async(_retired)(game_id)


def _retired(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(status=Game.Status.ABANDONED, due_at=None)


async def _first_board(base: str, game_id: int, key: str, address: str) -> None:
    path = f"/ws/games/{game_id}/?chat=players.0"
    async with person_socket(base, path, session_key=key, address=address) as ws:
        async with asyncio.timeout(FIRST_BOARD_SECONDS):
            while not BOARD.search(await ws.recv(), 0, 600):
                pass  # chat, presence: the board comes first, but not necessarily


def _address(number: int, openings: int, opening: int) -> str:
    """A different address for each opening (198.19.0.0/16: a benchmark range)."""
    index = number * openings + opening
    return f"198.19.{index // 250}.{index % 250 + 1}"
