"""Caps on table sockets, held under parallel bursts; who comes and goes costs the others a
small frame, never a board; a tab that reconnects replaces its own dead socket."""

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Presence
from games.realtime.consumers import TableConsumer
from games.table import seats as services

from .helpers import board_moves, can_play, hand_cards
from .sockets import Client, db, scan_frames

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]

CLOSE_TOO_MANY = 4409


def visitor(game_id: int, address: str, tab: str = "") -> Client:
    """A signed-out socket at the table from ``address``."""
    client = Client(game_id, query=f"?tab={tab}" if tab else "")
    client.communicator.scope["client"] = (address, 50000)
    return client


async def outcome(client: Client) -> str:
    """ "served" if the socket got its board, else the close code it got."""
    assert (await client.connect())[0]
    while True:
        output = await client.communicator.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return output.get("code")
        if 'id="board"' in output.get("text", ""):
            return "served"


async def burst(clients: list[Client]) -> list:
    return await asyncio.gather(*(outcome(client) for client in clients))


async def close_all(clients: list[Client]) -> None:
    for client in clients:
        await client.communicator.disconnect(timeout=10)


async def test_signed_out_sockets_from_one_address_are_capped_under_a_burst(alice, settings):
    settings.COINS_MAX_ANONYMOUS_PER_ADDRESS = 10
    game = await db(services.game_quick_play)(user=alice)
    clients = [visitor(game.pk, "203.0.113.7") for _ in range(50)]
    results = await burst(clients)
    served = results.count("served")
    assert 1 <= served <= 10 and results.count(CLOSE_TOO_MANY) == 50 - served, results
    live = await db(Presence.objects.filter(address="203.0.113.7").count)()
    assert live == served  # every refused socket's row is gone
    assert await outcome(visitor(game.pk, "203.0.113.8")) == "served"  # others still watch
    await close_all(clients)


async def test_signed_out_sockets_at_one_table_are_capped(alice, settings):
    settings.COINS_MAX_ANONYMOUS_PER_TABLE = 5
    game = await db(services.game_quick_play)(user=alice)
    clients = [visitor(game.pk, f"198.51.100.{n}") for n in range(20)]
    results = await burst(clients)
    assert 1 <= results.count("served") <= 5, results
    player = Client(game.pk, alice, 0)  # a seated person is never refused for watchers
    assert await outcome(player) == "served"
    await close_all([*clients, player])


async def test_one_person_has_a_cap_over_all_tables(alice, settings):
    settings.COINS_MAX_SOCKETS_PER_PERSON = 4
    games = [await db(services.game_quick_play)(user=alice) for _ in range(3)]
    clients = [Client(game.pk, alice, 0) for game in games for _ in range(3)]
    results = await burst(clients)
    assert 1 <= results.count("served") <= 4, results
    await close_all(clients)


async def test_a_reconnecting_tab_replaces_its_dead_socket(alice, settings):
    """A socket of this tab whose process died left a live-looking row: the tab's new
    socket takes its place instead of counting against the cap."""
    settings.COINS_MAX_SOCKETS = 1
    game = await db(services.game_quick_play)(user=alice)
    await db(Presence.objects.create)(
        game=game, channel="killed!1", user=alice, tab="tab-aaaa1111", seen_at=timezone.now()
    )
    other_tab = Client(game.pk, alice, 0, query="?tab=tab-bbbb2222")
    assert await outcome(other_tab) == CLOSE_TOO_MANY
    same_tab = Client(game.pk, alice, 0, query="?tab=tab-aaaa1111")
    assert await outcome(same_tab) == "served"
    assert not await db(Presence.objects.filter(channel="killed!1").exists)()
    await same_tab.close()


async def test_a_visitors_tab_cannot_remove_another_visitors_socket(alice, settings):
    settings.COINS_MAX_ANONYMOUS_PER_ADDRESS = 1
    game = await db(services.game_quick_play)(user=alice)
    first = visitor(game.pk, "192.0.2.1", tab="shared-tab-1")
    assert await outcome(first) == "served"
    elsewhere = visitor(game.pk, "192.0.2.2", tab="shared-tab-1")  # same tab id, other address
    assert await outcome(elsewhere) == "served"
    assert await db(Presence.objects.filter(game=game).count)() == 2
    await close_all([first, elsewhere])


async def test_a_socket_that_crashes_leaves_no_presence(alice, monkeypatch):
    """However a socket ends (here a handler raising), its row stops counting at once."""
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, 0)
    await client.board_where(can_play) if (await client.connect())[0] else None
    assert await db(Presence.objects.filter(game=game).count)() == 1

    async def broken(self, event):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(TableConsumer, "table_update", broken)
    from games.realtime.push import notify_table

    await db(notify_table)(game.pk, -1)
    with pytest.raises(RuntimeError):
        await client.communicator.wait(timeout=5)
    assert not await db(Presence.objects.filter(game=game).exists)()


async def test_watchers_coming_and_going_never_redraw_the_players_board(alice):
    game = await db(services.game_quick_play)(user=alice)
    player = Client(game.pk, alice, 0)
    assert (await player.connect())[0]
    await player.board_where(can_play)
    await player.drain()
    before = len(player.frames)
    watchers = [visitor(game.pk, f"192.0.2.{n}") for n in range(8)]
    assert await burst(watchers) == ["served"] * 8
    frame = await player.frame_where(lambda f: 'data-watching="8"' in f)
    assert 'id="board"' not in frame and len(frame) < 2000
    await close_all(watchers[:5])
    await player.frame_where(lambda f: 'data-watching="3"' in f)
    await player.drain()
    news = player.frames[before:]
    assert news and not [f for f in news if 'id="board"' in f]
    assert len(news) <= 13  # at most one frame per arrival or departure, usually a few
    await close_all([*watchers[5:], player])


async def test_a_stale_row_counts_for_nothing_against_a_cap(alice, settings):
    settings.COINS_MAX_ANONYMOUS_PER_ADDRESS = 1
    game = await db(services.game_quick_play)(user=alice)
    old = timezone.now() - timedelta(minutes=5)
    await db(Presence.objects.create)(game=game, channel="dead!2", address="192.0.2.9", seen_at=old)
    client = visitor(game.pk, "192.0.2.9")
    assert await outcome(client) == "served"
    await client.close()


@pytest.mark.parametrize("signed_in", [0, 3])
async def test_watchers_share_one_render_per_move(signed_in, alice, make_user, monkeypatch):
    """Every watcher's board of a move is the same HTML (no form, no token of theirs),
    signed in (seated nowhere) or not: rendered once for all of them, never with anything
    of the player's hand."""
    from games.realtime import socket_calls

    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "random"]
    )
    player = Client(game.pk, alice, 0)
    assert (await player.connect())[0]
    frame = await player.board_where(can_play)
    members = [await db(make_user)(f"watcher{n}") for n in range(signed_in)]
    watchers = [Client(game.pk, member) for member in members]
    watchers += [visitor(game.pk, f"192.0.2.{n}") for n in range(6 - signed_in)]
    assert await burst(watchers) == ["served"] * 6
    for client in (player, *watchers):
        await client.drain()
    renders = []
    real = socket_calls.render_board
    monkeypatch.setattr(
        socket_calls, "render_board", lambda *a, **k: renders.append(1) or real(*a, **k)
    )
    moves = board_moves(frame)
    await player.send({"card": hand_cards(frame)[0]})
    after = [await w.board_where(lambda f: board_moves(f) > moves) for w in watchers]
    assert len(set(after)) == 1 and 'id="hand"' not in after[0]
    assert len(renders) <= 2  # the player's own board, and one for every watcher
    await close_all([player, *watchers])
    for watcher in watchers:
        await scan_frames(watcher, await db(Game.objects.get)(pk=game.pk))
