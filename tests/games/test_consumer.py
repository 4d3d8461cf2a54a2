"""The table WebSocket, end to end through the ASGI application: playing, broadcasts,
refusals, access."""

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.db import connection

from games.models import Game, Play
from games.realtime import push
from games.realtime.consumers import SYNC
from games.realtime.push import notify_table
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import board_moves, can_play, hand_cards
from .sockets import Client, db, finished, is_presence, refused, scan_frames

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]


def layer_sends(monkeypatch, kind: str, key: str) -> list:
    """What the channel layer is asked to send to a group from here on: ``key`` of each
    message of type ``kind``, in order (the messages still go)."""
    layer = get_channel_layer()
    sent = []
    group_send = layer.group_send

    async def counted_group_send(group, message):
        if message["type"] == kind:
            sent.append(message[key])
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", counted_group_send)
    return sent


async def test_a_whole_game_against_two_bots_over_the_socket(alice):
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    frame, moves_sent = await client.play_to_the_end()
    await client.close()
    game = await db(Game.objects.get)(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert await db(Play.objects.filter(game=game, seat=0).count)() == moves_sent
    assert 'data-score-seat="0"' in frame and "Winner:" in frame
    await scan_frames(client, game)


async def test_bots_without_a_pause_answer_in_the_same_update(alice, settings):
    """With no bot pause, the reply to a card already shows the bots' answers: one frame."""
    settings.COINS_BOT_PAUSE = 0
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    for _ in range(5):
        frame = await client.board_where(lambda f: can_play(f) or finished(f))
        if finished(frame):
            break
        await client.drain()  # the chat panel the socket sent when it opened
        client.frames.clear()
        await client.send({"card": hand_cards(frame)[0]})
        reply = await client.receive()
        assert can_play(reply) or finished(reply)  # the bots have played up to alice again
        assert await client.heard_nothing(0.2)  # and nothing else came
        current = await db(Game.objects.get)(pk=game.pk)
        assert board_moves(reply) == current.moves
    await client.close()


async def test_a_move_is_broadcast_only_when_someone_else_watches(alice, settings, monkeypatch):
    """A person alone at a table gets their board straight back and nothing is broadcast;
    once a spectator watches, each move reaches the spectator too."""
    settings.COINS_BOT_PAUSE = 0
    await get_channel_layer().flush()  # sockets of earlier runs may linger in a group
    broadcasts = layer_sends(monkeypatch, "table.update", "moves")
    asked = []  # the channel layer asked whether anyone else is in the group
    others_watching = push.others_watching

    async def counted_others_watching(*args):
        asked.append(args)
        return await others_watching(*args)

    monkeypatch.setattr(push, "others_watching", counted_others_watching)
    game = await db(services.game_quick_play)(user=alice)
    player = Client(game.pk, alice, seat=0)
    assert (await player.connect())[0]
    frame = await player.board_where(can_play)
    broadcasts.clear()  # the runner told the table of any bots' opening cards
    await player.send({"card": hand_cards(frame)[0]})
    frame = await player.board_where(lambda f: board_moves(f) > board_moves(frame))
    assert broadcasts == []

    spectator = Client(game.pk)
    assert (await spectator.connect())[0]
    assert board_moves(await spectator.receive()) == board_moves(frame)
    await player.send({"card": hand_cards(frame)[0]})
    reply = await player.board_where(lambda f: board_moves(f) > board_moves(frame))
    seen = await spectator.board_where(lambda f: board_moves(f) == board_moves(reply))
    assert broadcasts == [board_moves(reply)] and 'id="hand"' not in seen
    # On PostgreSQL the move's own statement counted the table's sockets: no layer round
    # trip per move (elsewhere the in-memory layer's group is read instead).
    assert asked == [] if connection.vendor == "postgresql" else len(asked) == 2
    await player.close()
    await spectator.close()


async def test_a_socket_alone_at_its_table_announces_nothing(alice, bob, monkeypatch):
    """The usual game against bots: the person's socket arrives and leaves with no one else
    at the table, so no presence reading is taken or sent; a second socket is told."""
    from games.realtime.presence_frames import announcements_sent

    announced = layer_sends(monkeypatch, "table.presence", "watching")
    game = await db(services.game_quick_play)(user=alice)
    player = Client(game.pk, alice, seat=0)
    assert (await player.connect())[0]
    await player.board_where(lambda f: True)
    await player.close()
    await announcements_sent()
    assert announced == []

    player = Client(game.pk, alice, seat=0)
    assert (await player.connect())[0]
    await player.board_where(lambda f: True)  # its row is written: it is at the table
    watcher = Client(game.pk, bob)
    assert (await watcher.connect())[0]
    await player.frame_where(lambda f: is_presence(f) and 'data-watching="1"' in f)
    await watcher.close()
    await announcements_sent()
    assert announced == [1, 0]  # the watcher came, then left: the player is told each time
    await player.close()
    await announcements_sent()
    assert announced == [1, 0]  # the last one out tells no one


async def test_a_page_that_missed_an_update_gets_it_when_it_asks(alice, settings, monkeypatch):
    """An update lost on the way costs a silence, not a stuck table: after a silence the
    page asks, and gets the board if (and only if) the game has moved since its last one."""
    from games.table import lifecycle

    settings.COINS_BOT_PAUSE = 0
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    frame = await client.board_where(can_play)
    await client.drain()  # the chat panel sent as the socket opened
    await client.send(SYNC)
    assert await client.heard_nothing(0.3)  # nothing new: no answer

    card = hand_cards(frame)[0]  # played elsewhere, and the update is lost on the way
    monkeypatch.setattr(lifecycle, "notify_table", lambda *args, **kwargs: None)
    await db(flow.play_card)(game_id=game.pk, user=alice, card=card)
    assert await client.heard_nothing(0.3)
    await client.send(SYNC)
    board = await client.receive()
    current = await db(Game.objects.get)(pk=game.pk)
    assert board_moves(board) == current.moves > board_moves(frame)
    assert card not in hand_cards(board)
    await client.close()


async def test_seats_taken_and_resignations_from_pages_reach_the_sockets(alice, bob, carol):
    """Changes made outside a socket (a seat taken from the lobby, a resignation) carry no
    move number: every socket at the table shows them anyway."""
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "open"]
    )
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    assert 'data-status="waiting"' in await client.receive()

    def change(service, **kwargs):
        service(game_id=game.pk, **kwargs)
        notify_table(game.pk, -1)

    await db(change)(services.seat_join, user=bob)
    await client.board_where(lambda f: bob.username in f and 'data-status="waiting"' in f)
    await db(change)(services.seat_join, user=carol)
    await client.board_where(lambda f: 'data-status="in_progress"' in f)
    await db(change)(flow.resign, user=carol)
    board = await client.board_where(lambda f: 'data-status="abandoned"' in f)
    assert 'id="game-result"' in board
    await client.close()


async def test_each_socket_gets_boards_in_its_viewers_language(alice, bob):
    """A Spanish player and an English one at one table: every push is rendered per socket,
    in its viewer's language (the profile's choice, else the browser's)."""
    from accounts.models import Profile

    await db(Profile.objects.filter(user=alice).update)(language="es")
    alice = await db(type(alice).objects.get)(pk=alice.pk)  # as a new connection loads her
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "heuristic"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    spanish, english = Client(game.pk, alice, seat=0), Client(game.pk, bob, seat=1)
    browser = Client(game.pk)  # a spectator whose browser asks for Spanish
    browser.communicator.scope["headers"].append((b"accept-language", b"es-ES,es;q=0.9"))
    for client in (spanish, english, browser):
        assert (await client.connect())[0]
    for client in (spanish, english, browser):
        await client.board_where(lambda f: True)
    state = await db(lambda: game_load(Game.objects.get(pk=game.pk)).state)()
    mover = spanish if state.to_play == 0 else english if state.to_play == 1 else None
    if mover is not None:
        frame = await mover.board_where(can_play)
        await mover.send({"card": hand_cards(frame)[0]})
    for client in (spanish, english, browser):
        await client.board_where(lambda f: board_moves(f) > 0)
    for client, word in ((spanish, "Copas"), (browser, "Copas"), (english, "Cups")):
        boards = [frame for frame in client.frames if board_moves(frame) is not None]
        assert boards and all(word in frame for frame in boards), (client.seat, word)
    assert not any("Copas" in frame for frame in english.frames)
    for client in (spanish, english, browser):
        await client.close()


async def test_two_humans_and_a_bot_see_each_others_moves(alice, bob):
    game = await db(services.game_create)(
        creator=alice, target=5, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    clients = {0: Client(game.pk, alice, 0), 1: Client(game.pk, bob, 1)}
    watcher = Client(game.pk, None, None)
    for client in (*clients.values(), watcher):
        assert (await client.connect())[0]
    while True:
        game = await db(Game.objects.get)(pk=game.pk)
        if game.status != Game.Status.IN_PROGRESS:
            break
        if game.to_play in clients:
            mover = clients[game.to_play]
            frame = await mover.board_where(
                lambda f, m=game.moves: can_play(f) and board_moves(f) >= m
            )
            await mover.send({"card": hand_cards(frame)[0]})
            await mover.board_where(lambda f, m=game.moves: board_moves(f) > m)
        else:
            await asyncio.sleep(0.01)
    for client in (*clients.values(), watcher):
        await client.board_where(finished)
    for client in (*clients.values(), watcher):
        await client.close()
        await scan_frames(client, game)
        assert not any('http-equiv="refresh"' in f for f in client.frames)  # never reloads
    assert all(hand_cards(f) == [] for f in watcher.frames)


async def test_errors_go_to_the_sender_only_and_change_nothing(alice, bob, carol, make_user):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "open"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    await db(services.seat_join)(game_id=game.pk, user=carol)
    game = await db(Game.objects.get)(pk=game.pk)
    users = {0: alice, 1: bob, 2: carol}
    mover = game.to_play
    waiting = (mover + 1) % 3
    clients = {seat: Client(game.pk, users[seat], seat) for seat in range(3)}
    eve = await db(make_user)("eve")
    stranger = Client(game.pk, eve, None)
    boards = {}
    for seat, client in clients.items():
        await client.connect()
        boards[seat] = await client.receive()
    await stranger.connect()
    await stranger.receive()
    for client in (*clients.values(), stranger):
        await client.drain()

    other_card = hand_cards(boards[waiting])[0]
    await refused(clients[waiting], {"card": other_card}, "not your turn")
    await refused(clients[mover], {"card": other_card}, "not in your hand")
    await refused(clients[mover], {"card": "13O"}, "not a card")
    await refused(clients[mover], {"card": 12}, "Say which card")
    await refused(clients[mover], "this is not json", "not valid JSON")
    await refused(clients[mover], "[" * 1000 + "]" * 1000, "not valid JSON")  # no RecursionError
    await refused(clients[mover], '{"card": ' + "[" * 900 + "]" * 900 + "}", "plain values only")
    await refused(clients[mover], {"card": ["1O"]}, "plain values only")
    await refused(clients[mover], {"card": "1O", "padding": "x" * 5000}, "too large")
    await refused(stranger, {"card": other_card}, "not seated")
    await clients[mover].communicator.send_to(bytes_data=b"\x00\x01")
    assert "text messages only" in await clients[mover].receive()

    for client in (*clients.values(), stranger):
        assert await client.heard_nothing(0.2)
    assert (await db(Game.objects.get)(pk=game.pk)).moves == 0
    for client in (*clients.values(), stranger):
        await client.close()
        for frame in client.frames:
            assert f'"{other_card}"' not in frame or client.seat == waiting


async def test_a_move_on_a_finished_game_is_refused(alice):
    game = await db(services.game_create)(
        creator=alice, target=1, seat_kinds=["me", "random", "random"]
    )
    client = Client(game.pk, alice, 0)
    await client.connect()
    await client.play_to_the_end()
    await refused(client, {"card": "1O"}, "The game is over")
    await client.close()


async def test_two_sockets_of_one_player_sending_at_once_apply_exactly_one(alice, bob, carol):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "open"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    await db(services.seat_join)(game_id=game.pk, user=carol)
    game = await db(Game.objects.get)(pk=game.pk)
    user = {0: alice, 1: bob, 2: carol}[game.to_play]
    first, second = Client(game.pk, user, game.to_play), Client(game.pk, user, game.to_play)
    await first.connect()
    await second.connect()
    cards = hand_cards(await first.receive())
    await second.receive()
    await first.drain()
    await second.drain()
    await asyncio.gather(first.send({"card": cards[0]}), second.send({"card": cards[1]}))
    replies = [await first.receive(), await second.receive()]
    errors = [r for r in replies if 'id="table-message"' in r]
    assert len(errors) == 1 and "not your turn" in errors[0]
    assert await db(Play.objects.filter(game=game).count)() == 1
    await first.close()
    await second.close()


async def test_private_tables_refuse_strangers_and_accept_the_invite(alice, bob):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"], is_public=False
    )

    async def closed_with(client: Client) -> int:
        """Accepted, so the page hears the reason, then closed with it at once."""
        assert (await client.connect())[0]
        output = await client.communicator.receive_output(timeout=5)
        assert output["type"] == "websocket.close"
        return output["code"]

    assert await closed_with(Client(game.pk, bob)) == 4404  # as for a missing table
    invited = Client(game.pk, bob, query=f"?invite={game.invite_token}")
    assert (await invited.connect())[0]
    assert 'id="board"' in await invited.receive()
    await invited.close()
    assert await closed_with(Client(game.pk + 99, bob)) == 4404


async def test_a_reconnecting_socket_gets_the_current_board(alice):
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, 0)
    await client.connect()
    frame = await client.board_where(can_play)
    await client.send({"card": hand_cards(frame)[0]})
    played_at = board_moves(frame)
    await client.board_where(lambda f: can_play(f) and board_moves(f) > played_at)
    await client.close()
    game = await db(Game.objects.get)(pk=game.pk)
    again = Client(game.pk, alice, 0)
    await again.connect()
    frame = await again.receive()
    assert board_moves(frame) == game.moves and can_play(frame)
    await again.close()
