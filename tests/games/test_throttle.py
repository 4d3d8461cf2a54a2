"""Socket floods: a burst, then polite refusals (a few answered), then a close; a person's
tabs at one table are capped. Play goes on for everyone else."""

import pytest

from games.models import Game
from games.realtime.throttle import (
    ANSWERED_REFUSALS,
    BURST,
    CLOSE_AFTER_REFUSALS,
    PER_SECOND,
    MessageBucket,
)
from games.table import seats as services
from tests.clock import FakeClock

from .helpers import board_moves, can_play
from .sockets import Client, db

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]


def test_the_bucket_allows_a_burst_then_its_rate():
    clock = FakeClock()
    bucket = MessageBucket(clock=clock)
    assert all(bucket.take() for _ in range(BURST))
    assert not bucket.take() and bucket.should_answer
    clock.now += 0.5  # two messages' worth at 4 a second
    assert bucket.take() and bucket.take() and not bucket.take()
    for _ in range(CLOSE_AFTER_REFUSALS):
        bucket.take()
    assert not bucket.should_answer and bucket.should_close
    clock.now += 10
    assert bucket.take() and bucket.refused_in_row == 0


async def test_a_flooding_socket_is_refused_then_closed_and_the_game_is_untouched(alice, settings):
    settings.COINS_SOCKET_BURST, settings.COINS_SOCKET_RATE = BURST, PER_SECOND
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "random"], is_rated=False
    )
    client = Client(game.pk, alice, 0)
    await client.connect()
    moves = board_moves(await client.board_where(can_play))
    await client.drain()
    for _ in range(BURST + CLOSE_AFTER_REFUSALS + 5):
        await client.send({"card": "13O"})  # not a card: each one answered while allowed
    refusals = slow_downs = 0
    while True:
        output = await client.communicator.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4429
            break
        text = output.get("text", "")
        refusals += "not a card" in text
        slow_downs += "Slow down" in text
    # A token may come back while the flood is sent: a refusal or two more may be answered.
    assert BURST <= refusals <= BURST + 3
    assert ANSWERED_REFUSALS <= slow_downs <= 3 * ANSWERED_REFUSALS
    assert (await db(Game.objects.get)(pk=game.pk)).moves == moves  # alice's turn: no card


async def test_a_person_may_open_a_table_in_only_so_many_tabs(alice, settings):
    settings.COINS_MAX_SOCKETS = 2
    game = await db(services.game_quick_play)(user=alice)
    tabs = [Client(game.pk, alice, 0) for _ in range(3)]
    for tab in tabs[:2]:
        assert (await tab.connect())[0]
        await tab.receive()
    assert (await tabs[2].connect())[0]
    output = await tabs[2].communicator.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 4409}
    await tabs[0].close()
    again = Client(game.pk, alice, 0)
    assert (await again.connect())[0] and 'id="board"' in await again.receive()
    for tab in (tabs[1], again):
        await tab.close()
