"""The game streams wake on a channel layer of their own (Redis pub/sub in production):
every change of a table where a program sits is told there, and only those tables pay for
it; a stream that misses a wake still reads the database at its keepalive."""

import asyncio

import pytest
from channels.layers import channel_layers, get_channel_layer

from games.engine import CARD_CODES
from games.models import Game
from games.realtime import push
from games.realtime.db_threads import in_db_thread
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from tests.games.helpers import serve_due

from .helpers import my_cards, open_game

pytestmark = pytest.mark.django_db(transaction=True)
MEMORY = {"BACKEND": "channels.layers.InMemoryChannelLayer"}


@pytest.fixture
def two_layers(settings):
    """The sockets' layer and the streams' layer, apart (in memory, to count what each
    gets)."""
    settings.CHANNEL_LAYERS = {"default": MEMORY, "streams": MEMORY}
    settings.COINS_STREAM_LAYER = "streams"
    channel_layers.backends.clear()
    push._programs_at.clear()
    yield get_channel_layer("default"), get_channel_layer("streams")
    channel_layers.backends.clear()


async def listening(layer, game_id: int) -> str:
    channel = await layer.new_channel()
    await layer.group_add(push.group_name(game_id), channel)
    return channel


async def received(layer, channel: str) -> list[dict]:
    messages = []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), 0.2))
        except TimeoutError:
            return messages


async def test_a_program_s_table_wakes_the_streams_layer_on_every_card(two_layers, robot, api):
    _sockets, streams = two_layers
    game = await in_db_thread(open_game)(api)
    channel = await listening(streams, game.pk)
    card = (await in_db_thread(my_cards)(game))[0]
    result = await in_db_thread(flow.play_card)(
        game_id=game.pk, user=robot, card=card, by_program=True
    )
    woken = await received(streams, channel)
    assert {"type": "table.update", "moves": result.moves} in woken


def first_legal(game, seat: int) -> str:
    state = game_load(Game.objects.get(pk=game.pk)).state
    assert state.to_play == seat
    return CARD_CODES[state.legal_cards(seat)[0]]


async def test_a_table_of_people_and_bots_tells_the_streams_layer_nothing(two_layers, alice):
    sockets, streams = two_layers
    game = await in_db_thread(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "random"]
    )
    await in_db_thread(serve_due)(game.pk)
    socket, stream = await listening(sockets, game.pk), await listening(streams, game.pk)
    card = await in_db_thread(first_legal)(game, 0)
    await in_db_thread(flow.play_card)(game_id=game.pk, user=alice, card=card)
    assert [m["type"] for m in await received(sockets, socket)] == ["table.update"]
    assert await received(streams, stream) == []


async def test_chat_at_a_program_s_table_wakes_its_streams(two_layers, robot, api):
    _sockets, streams = two_layers
    game = await in_db_thread(open_game)(api)
    channel = await listening(streams, game.pk)
    said = await in_db_thread(api.post)(
        f"/api/bot/game/{game.pk}/chat", {"text": "hello"}, content_type="application/json"
    )
    assert said.status_code == 200
    woken = await received(streams, channel)
    assert [m["type"] for m in woken] == ["table.chat"]
