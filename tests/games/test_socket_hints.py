"""Over the table's socket: search bots think in other processes; hints, one at a time."""

import asyncio
import os
from datetime import timedelta

import pytest

from games.models import Game, Play
from games.table import flow
from games.table import seats as services

from .helpers import can_play, hand_cards
from .sockets import Client, at_my_turn, db

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]


async def test_search_bots_think_in_another_process(alice, monkeypatch, tmp_path):
    """Bots marked as searching are asked in the worker pool by the runner, never in the
    server's threads or on a socket: the workers log each card with their process id."""
    from games.table import lifecycle, thinking

    def fresh_pool():  # workers read the environment when they start
        thinking.shutdown_pools()

    log = tmp_path / "thinking.log"
    monkeypatch.setenv("COINS_THINK_LOG", str(log))
    monkeypatch.setattr(flow, "SEARCH_BOTS", frozenset({"heuristic"}))
    # Nothing dies here: a turn's lease must not run out while a loaded machine starts the
    # workers, or the turn would rightly be thought twice (what the lease is for).
    monkeypatch.setattr(lifecycle, "SEARCH_LEASE", timedelta(minutes=5))
    fresh_pool()
    try:
        game = await db(services.game_create)(
            creator=alice, target=3, seat_kinds=["me", "heuristic", "heuristic"]
        )
        client = Client(game.pk, alice, 0)
        await client.connect()
        await client.play_to_the_end(timeout=30)
        await client.close()
    finally:
        fresh_pool()
    game = await db(Game.objects.get)(pk=game.pk)
    bot_plays = await db(Play.objects.filter(game=game).exclude(seat=0).count)()
    thought = [line.split() for line in log.read_text().splitlines()]
    assert bot_plays and len(thought) == bot_plays
    assert all(bot == "heuristic" and int(pid) != os.getpid() for bot, _, pid in thought)


async def test_hints_in_casual_games_only_on_your_turn(alice, bob):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_rated=False
    )
    client = Client(game.pk, alice, 0)
    await client.connect()
    frame = await client.board_where(can_play)  # the socket plays the bots up to our turn
    assert 'data-action="hint"' in frame
    await client.send({"hint": "1"})
    reply = await client.frame_where(lambda f: "table-message" in f, timeout=20)
    assert 'class="table-message hint"' in reply and "Play the " in reply
    named = reply.split("Play the ")[1].split(":")[0]
    from games.engine import card_name, parse_card

    assert named in {card_name(parse_card(code)) for code in hand_cards(frame)}
    await client.close()
    rated = await db(services.game_quick_play)(user=bob)
    watcher = Client(rated.pk, bob, 0)
    await watcher.connect()
    board = await watcher.board_where(can_play)
    assert 'data-action="hint"' not in board
    await watcher.send({"hint": "1"})
    reply = await watcher.frame_where(lambda f: "table-message" in f)
    assert "Hints are off in rated games." in reply
    await watcher.close()


async def test_one_hint_at_a_time_per_socket_and_ten_a_minute_per_person(alice, monkeypatch):
    """A second hint while one is thought out is refused; past ten in a minute, over all of
    a person's sockets, hints are refused with the reason; play goes on meanwhile."""
    from django.core.cache import cache

    from games.realtime import consumers

    cache.clear()
    release = asyncio.Event()
    asked = []

    async def slow_choose(bot_name, seed, view, lane="bots"):
        asked.append(bot_name)
        await release.wait()
        return view.legal_cards[0]

    monkeypatch.setattr(consumers, "choose_elsewhere", slow_choose)
    game, client, _frame = await at_my_turn(alice, rated=False)
    await client.send({"hint": "1"})
    await client.send({"hint": "1"})
    reply = await client.frame_where(lambda f: "table-message" in f)
    assert "Your hint is on its way: one at a time." in reply
    release.set()
    reply = await client.frame_where(lambda f: "table-message hint" in f)
    assert "Play the " in reply and asked == ["expert-v4"]  # thought by the hard level
    second = Client(game.pk, alice, 0)  # the allowance is the person's, not the socket's
    await second.connect()
    await second.board_where(can_play)
    for _ in range(9):
        await second.send({"hint": "1"})
        await second.frame_where(lambda f: "table-message hint" in f)
    await second.send({"hint": "1"})
    reply = await second.frame_where(lambda f: "table-message" in f)
    assert "You have asked for 10 hints this minute" in reply and len(asked) == 10
    await client.close()
    await second.close()
    cache.clear()
