"""A property-based fuzzer for the table's socket: random and malformed frames (text, JSON of
any shape, nested, huge, binary, card codes right and wrong) against a live game. The game
moves only when the frame was a legal card of the person due, every frame is answered or
ignored without closing the socket, and the server logs no error."""

import json
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import CARD_CODES
from games.models import Game
from games.realtime.consumers import TableConsumer
from games.table import seats as services
from games.table.loading import game_load

from .sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)

HANDLED = "<!-- the frame was handled -->"  # sent by the test's consumer after each frame

db = database_sync_to_async
codes = st.sampled_from(CARD_CODES) | st.text(max_size=6)
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner),
    max_leaves=8,
)
messages = st.dictionaries(
    st.sampled_from(["card", "hint", "chat", "chat_preset", "mute", "report", "HEADERS", "x"]),
    codes | json_values,
    max_size=3,
)
frames = st.one_of(
    messages.map(json.dumps),
    st.builds(lambda code: json.dumps({"card": code}), codes),
    st.text(max_size=300),
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.binary(max_size=64),
    st.just('{"sync": true}'),
)


def fresh_database_pool() -> None:
    """Each example runs on an event loop of its own (as each async test does, see the
    ``fresh_database_pool`` fixture): after many sockets at once in an earlier test, a
    connection taken on an example's loop may never go back to the pool, so each example
    gets a fresh one rather than running the pool dry by the twentieth."""
    from django.db import connection

    if getattr(connection, "pool", None) is not None:
        connection.close_pool()


def hand_and_turn(game_id: int) -> tuple[set[str], bool, int]:
    game = Game.objects.get(pk=game_id)
    state = game_load(game).state
    hand = {CARD_CODES[card] for card in state.hands[0]}
    return hand, state.to_play == 0 and game.is_running, game.moves


async def send_and_check(client: Client, game_id: int, frame) -> None:
    hand, my_turn, before = await db(hand_and_turn)(game_id)
    kind = "bytes" if isinstance(frame, bytes) else "text"  # empty frames too
    await client.communicator.send_input({"type": "websocket.receive", kind: frame})
    # Every answer to this frame, until the consumer says it has handled it (no quiet time
    # guessed: the socket handles its frames one after another).
    while True:
        output = await client.communicator.receive_output(timeout=10)
        assert output["type"] == "websocket.send", output  # never closed
        if output.get("text") == HANDLED:
            break
    _, _, after = await db(hand_and_turn)(game_id)
    if after != before:
        legal = json.loads(frame).get("card") if isinstance(frame, str) else None
        assert my_turn and legal in hand, (frame, before, after)


@pytest.fixture
def handled_frames_marked(monkeypatch):
    """The table's consumer, telling the test when it has handled each frame."""
    receive = TableConsumer.receive

    async def receive_and_mark(self, text_data=None, bytes_data=None):
        await receive(self, text_data, bytes_data)
        await self.send(HANDLED)

    monkeypatch.setattr(TableConsumer, "receive", receive_and_mark)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(batch=st.lists(frames, min_size=1, max_size=6))
def test_no_frame_moves_the_game_unless_it_is_a_legal_card(
    alice, caplog, handled_frames_marked, batch
):
    caplog.set_level(logging.WARNING)

    async def run():
        game = await db(services.game_create)(
            creator=alice, target=99, seat_kinds=["me", "random", "random"], is_rated=False
        )
        client = Client(game.pk, alice, 0)
        await client.connect()
        await client.board_where(lambda board: True)  # the board the socket opens with
        for frame in batch:
            await send_and_check(client, game.pk, frame)
        await client.close()

    async_to_sync(run)()
    fresh_database_pool()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors
