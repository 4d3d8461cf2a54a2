"""A test's socket at a table, through the whole ASGI application (the site's own stack),
remembering every frame it received; shared by the socket tests."""

import asyncio
import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from coins_site.asgi import application
from games.models import Game
from games.realtime.channels_adapter import last_reads_finished
from games.realtime.presence_frames import announcements_sent
from games.table import seats as services

from .helpers import assert_no_hidden_cards, board_moves, can_play, hand_cards

db = database_sync_to_async


def is_presence(frame: str) -> bool:
    """A presence frame: seat marks and the watcher count, never a board."""
    return frame.startswith('<span id="presence-')


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
        connected, code = await self.communicator.connect(timeout=10)  # not 1 s: a loaded machine
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

    async def heard_nothing(self, quiet: float = 0.2) -> bool:
        """Whether no frame but presence came within ``quiet`` seconds (who came and went
        reaches a socket whenever the table's announcements go out)."""
        while not await self.communicator.receive_nothing(timeout=quiet):
            if not is_presence(await self.receive()):
                return False
        return True

    async def send(self, data):
        await self.communicator.send_to(
            text_data=data if isinstance(data, str) else json.dumps(data)
        )

    async def close(self):
        await disconnected(self.communicator)


async def disconnected(communicator) -> None:
    """Close a test's socket and wait for its last read of the layer to end on this test's
    loop (``channels_adapter``): a read left pending would outlive the loop."""
    await communicator.disconnect(timeout=10)
    await last_reads_finished()


def finished(frame: str) -> bool:
    return 'id="game-result"' in frame


async def at_my_turn(
    user, *, rated: bool = True, public: bool = True, target: int = 10
) -> tuple[Game, Client, str]:
    """``user`` at a new table against two random bots, their socket open on their turn:
    the game, the socket and the board."""
    game = await db(services.game_create)(
        creator=user,
        target=target,
        seat_kinds=["me", "random", "random"],
        is_rated=rated,
        is_public=public,
    )
    client = Client(game.pk, user, 0)
    await client.connect()
    return game, client, await client.board_where(can_play)


async def scan_frames(client: Client, game: Game):
    for frame in client.frames:
        await db(assert_no_hidden_cards)(frame, game, client.seat)


async def refused(client: Client, message, expect: str):
    await client.send(message)
    frame = await client.receive()
    while 'id="board"' in frame or 'id="watching"' in frame:  # a board or who is here
        frame = await client.receive()
    assert 'id="table-message"' in frame and expect in frame, frame
    return frame
