"""The table WebSocket, end to end through the ASGI application."""

import asyncio
import json
import os
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.test import Client as PageClient

from coins_site.asgi import application
from games.models import Game, Play
from games.realtime.channels_adapter import others_watching
from games.realtime.consumers import SYNC
from games.realtime.presence_frames import announcements_sent
from games.realtime.push import notify_table
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import assert_no_hidden_cards, board_moves, can_play, hand_cards

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]

db = database_sync_to_async


class Client:
    """A socket at one table, remembering every frame it received."""

    def __init__(self, game_id: int, user=None, seat: int | None = None, query: str = ""):
        self.communicator = WebsocketCommunicator(
            application,
            f"/ws/games/{game_id}/{query}",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
        )
        if user is not None:
            self.communicator.scope["user"] = user
        self.game_id, self.seat = game_id, seat
        self.frames: list[str] = []

    async def connect(self):
        connected, code = await self.communicator.connect()
        return connected, code

    async def receive(self, timeout=5.0) -> str:
        frame = await self.communicator.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    @property
    def latest_board(self) -> str | None:
        boards = [frame for frame in self.frames if board_moves(frame) is not None]
        return boards[-1] if boards else None

    async def board_where(self, predicate, timeout=10.0) -> str:
        """Return the latest board if it satisfies ``predicate``, else wait for one that does."""
        latest = self.latest_board
        if latest is not None and predicate(latest):
            return latest
        return await self.frame_where(
            lambda frame: board_moves(frame) is not None and predicate(frame), timeout
        )

    async def play_to_the_end(self, timeout=10.0) -> tuple[str, int]:
        """Play the first card of the hand on each turn until the game ends.

        Return the final board and how many cards this socket played.
        """
        seen = -1
        for played in range(200):  # a socket plays at most about 100 cards of a game
            frame = await self.board_where(
                lambda f, seen=seen: board_moves(f) > seen and (can_play(f) or finished(f)),
                timeout=timeout,
            )
            if finished(frame):
                return frame, played
            seen = board_moves(frame)
            await self.send({"card": hand_cards(frame)[0], "HEADERS": {"HX-Request": "true"}})
        raise AssertionError("the game did not end")

    async def frame_where(self, predicate, timeout=10.0) -> str:
        """The next frame that satisfies ``predicate`` (boards, chat panels, ... skipped),
        within ``timeout`` seconds in all."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"no such frame within {timeout} s"
            frame = await self.receive(timeout=left)
            if predicate(frame):
                return frame

    async def drain(self, quiet: float = 0.2) -> None:
        """Take every frame already on its way (boards redrawn as others come and go),
        for at most 10 s: a socket that never falls quiet is a failure."""
        await announcements_sent()  # who came and went: on their way to the sockets now
        deadline = asyncio.get_running_loop().time() + 10
        while not await self.communicator.receive_nothing(timeout=quiet):
            assert asyncio.get_running_loop().time() < deadline, "the socket never fell quiet"
            await self.receive()

    async def send(self, data):
        await self.communicator.send_to(
            text_data=data if isinstance(data, str) else json.dumps(data)
        )

    async def close(self):
        await self.communicator.disconnect()


def finished(frame: str) -> bool:
    return 'id="game-result"' in frame


async def at_my_turn(user, *, rated: bool = True) -> tuple[Game, Client, str]:
    """``user`` at a new table against two random bots, their socket open on their turn:
    the game, the socket and the board."""
    game = await db(services.game_create)(
        creator=user, target=10, seat_kinds=["me", "random", "random"], is_rated=rated
    )
    client = Client(game.pk, user, 0)
    await client.connect()
    return game, client, await client.board_where(can_play)


async def scan_frames(client: Client, game: Game):
    for frame in client.frames:
        await db(assert_no_hidden_cards)(frame, game, client.seat)


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
        assert await client.communicator.receive_nothing(timeout=0.2)  # and nothing else came
        current = await db(Game.objects.get)(pk=game.pk)
        assert board_moves(reply) == current.moves
    await client.close()


async def test_a_move_is_broadcast_only_when_someone_else_watches(alice, settings, monkeypatch):
    """A person alone at a table gets their board straight back and nothing is broadcast;
    once a spectator watches, each move reaches the spectator too."""
    settings.COINS_BOT_PAUSE = 0
    layer = get_channel_layer()
    await layer.flush()  # sockets of earlier runs may linger in a group of the same name
    broadcasts = []
    group_send = layer.group_send

    async def counted_group_send(group, message):
        if message["type"] == "table.update":
            broadcasts.append(message["moves"])
        await group_send(group, message)

    monkeypatch.setattr(layer, "group_send", counted_group_send)
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
    await player.close()
    await spectator.close()


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
    assert await client.communicator.receive_nothing(timeout=0.3)  # nothing new: no answer

    card = hand_cards(frame)[0]  # played elsewhere, and the update is lost on the way
    monkeypatch.setattr(lifecycle, "notify_table", lambda *args, **kwargs: None)
    await db(flow.play_card)(game_id=game.pk, user=alice, card=card)
    assert await client.communicator.receive_nothing(timeout=0.3)
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


async def refused(client: Client, message, expect: str):
    await client.send(message)
    frame = await client.receive()
    while 'id="board"' in frame or 'id="watching"' in frame:  # a board or who is here
        frame = await client.receive()
    assert 'id="table-message"' in frame and expect in frame, frame
    return frame


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
        assert await client.communicator.receive_nothing(timeout=0.2)
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


async def test_search_bots_think_in_another_process(alice, monkeypatch, tmp_path):
    """Bots marked as searching are asked in the worker pool by the runner, never in the
    server's threads or on a socket: the workers log each card with their process id."""
    from games.table import flow, lifecycle, thinking

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


async def test_each_seat_shows_live_whether_its_person_is_connected(alice, bob, carol):
    """Presence crosses sockets: a seat turns connected when its person's socket opens and
    disconnected when it closes; watchers are counted; a row left by a killed process
    (no longer refreshed) stops counting."""

    from django.utils import timezone

    from games.models import Presence

    def presence_of_seat(frame: str, seat: int) -> str | None:
        match = re.search(rf'data-presence-seat="{seat}" data-presence="(\w+)"', frame)
        return match[1] if match else None

    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "heuristic"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    ann = Client(game.pk, alice, seat=0)
    assert (await ann.connect())[0]
    frame = await ann.board_where(lambda f: True)
    assert presence_of_seat(frame, 0) == "here" and presence_of_seat(frame, 1) == "away"
    assert presence_of_seat(frame, 2) is None  # a bot has no connection to show

    # Who comes and goes reaches the others as a small frame, never a board.
    ben = Client(game.pk, bob, seat=1)
    assert (await ben.connect())[0]
    frame = await ann.frame_where(lambda f: presence_of_seat(f, 1) == "here")
    assert 'id="board"' not in frame and 'hx-swap-oob="true"' in frame
    watcher = Client(game.pk, carol)
    assert (await watcher.connect())[0]
    await ann.frame_where(lambda f: 'data-watching="1"' in f)
    await ben.frame_where(lambda f: 'data-watching="1"' in f)

    await ben.close()
    await ann.frame_where(lambda f: presence_of_seat(f, 1) == "away")
    assert not await db(Presence.objects.filter(user=bob).exists)()

    # A socket whose process was killed leaves its row; once stale, it counts for nothing.
    stale = timezone.now() - timedelta(minutes=5)
    await db(Presence.objects.create)(game=game, channel="dead!1", user=bob, seen_at=stale)
    page = await db(PageClient().get)(f"/games/{game.pk}/")
    assert 'data-presence-seat="1" data-presence="away"' in page.content.decode()
    await watcher.close()
    await ann.close()
    for client in (ann, ben, watcher):
        await scan_frames(client, game)


async def closed_with(client: Client) -> int | None:
    """The close code the socket got next (None if it got a frame instead)."""
    while True:
        output = await client.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output.get("code")


async def at_a_table_and_in_a_browser(alice) -> tuple[Client, PageClient]:
    """Alice's socket at a table, and her browser's pages, logged in."""
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    browser = PageClient()
    await db(browser.force_login)(alice)
    return client, browser


async def test_logging_out_closes_the_persons_sockets(alice):
    client, browser = await at_a_table_and_in_a_browser(alice)
    response = await db(browser.post)("/accounts/logout/")
    assert response.status_code == 302
    assert await closed_with(client) == 4401


async def test_changing_the_password_closes_the_persons_sockets(alice):
    client, browser = await at_a_table_and_in_a_browser(alice)
    form = {
        "old_password": "pw-Coins-123",
        "new_password1": "another-Pass-77",
        "new_password2": "another-Pass-77",
    }
    response = await db(browser.post)("/accounts/password/change/", form)
    assert response.status_code == 302
    assert await closed_with(client) == 4401


async def test_a_socket_opens_while_the_channel_layer_is_down(alice, monkeypatch):
    """Redis restarting: the socket still opens and shows the board; it joins its groups
    when its page next asks for news."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    real_add = layer.group_add

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is restarting")

    monkeypatch.setattr(layer, "group_add", down)
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, seat=0)
    assert (await client.connect())[0]
    assert board_moves(await client.receive()) is not None
    monkeypatch.setattr(layer, "group_add", real_add)  # Redis is back
    await client.send(SYNC)
    await asyncio.sleep(0.2)
    assert await others_watching(layer, f"game-{game.pk}", "someone-else")
    await client.close()
