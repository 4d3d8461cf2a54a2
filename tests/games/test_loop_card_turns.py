"""Cards on a server's event loop take turns (``COINS_LOOP_CARDS_AT_ONCE``) through the
real socket: a card that arrives while another holds the turn is played once that one is
done, and a turn held too long (a statement stuck on PostgreSQL) holds no card back."""

import asyncio

import pytest
from django.db import connection

from games.models import Play
from games.realtime import loop_card, loop_db
from tests.games.helpers import board_moves, hand_cards
from tests.games.sockets import at_my_turn, db

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's connections"),
]


def plays(game_id: int) -> int:
    return Play.objects.filter(game_id=game_id).count()


async def test_a_card_waits_for_the_turn_another_card_holds(alice, settings):
    settings.COINS_LOOP_CARDS_AT_ONCE, settings.COINS_LOOP_TURN_WAIT = 1, 60
    game, client, board = await at_my_turn(alice)
    turns = loop_card.card_turns()
    await turns.slots.acquire()  # another table's card, on the loop now
    before, moves = await db(plays)(game.pk), board_moves(board)
    await client.send({"card": hand_cards(board)[0], "moves": moves})
    for _ in range(1000):  # the card reaches its turn's wait (at most 10 s on a busy machine)
        if turns.waiting:
            break
        await asyncio.sleep(0.01)
    assert turns.waiting == 1
    assert await db(plays)(game.pk) == before  # nothing played while it waits
    turns.slots.release()  # the other card is done
    after = await client.board_where(lambda frame: board_moves(frame) > moves)
    assert await db(plays)(game.pk) == board_moves(after) > before
    assert turns.waiting == 0 and not turns.slots.locked()
    await client.close()


async def test_a_turn_held_past_the_wait_holds_no_card_back(alice, settings):
    settings.COINS_LOOP_CARDS_AT_ONCE, settings.COINS_LOOP_TURN_WAIT = 1, 0.05
    game, client, board = await at_my_turn(alice)
    await loop_card.card_turns().slots.acquire()  # a card stuck on PostgreSQL, never given back
    moves = board_moves(board)
    await client.send({"card": hand_cards(board)[0], "moves": moves})
    after = await client.board_where(lambda frame: board_moves(frame) > moves)
    assert await db(plays)(game.pk) == board_moves(after)
    await client.close()


async def test_a_card_whose_statement_is_slow_gives_its_turn_to_the_next(
    alice, bob, settings, monkeypatch
):
    """With PostgreSQL slow on one card's statement, the loop does not sit idle behind it:
    past ``COINS_LOOP_TURN_HOLD`` the next card (another table's) has its turn and its
    board, and the slow card's board follows once its statement is back."""
    settings.COINS_LOOP_CARDS_AT_ONCE, settings.COINS_LOOP_TURN_WAIT = 1, 60
    settings.COINS_LOOP_TURN_HOLD = 0.01
    slow_game, slow_client, slow_board = await at_my_turn(alice)
    game, client, board = await at_my_turn(bob)
    statement_may_return = asyncio.Event()
    real = loop_db.LoopConnections.fetch_one

    statements = 0

    async def the_first_slow(self, sql, params, prepare):
        nonlocal statements
        statements += 1
        row = await real(self, sql, params, prepare)
        if statements == 1:  # alice's card: committed, its answer held up on the way back
            await statement_may_return.wait()
        return row

    monkeypatch.setattr(loop_db.LoopConnections, "fetch_one", the_first_slow)
    slow_moves, moves = board_moves(slow_board), board_moves(board)
    await slow_client.send({"card": hand_cards(slow_board)[0], "moves": slow_moves})
    turns = loop_card.card_turns()
    for _ in range(1000):  # the slow card has the turn (at most 10 s on a busy machine)
        if turns.slots.locked():
            break
        await asyncio.sleep(0.01)
    await client.send({"card": hand_cards(board)[0], "moves": moves})
    after = await client.board_where(lambda frame: board_moves(frame) > moves)
    assert await db(plays)(game.pk) == board_moves(after)
    assert slow_client.latest_board == slow_board  # still out
    statement_may_return.set()
    slow_after = await slow_client.board_where(lambda frame: board_moves(frame) > slow_moves)
    assert await db(plays)(slow_game.pk) == board_moves(slow_after)
    assert not turns.slots.locked()
    await slow_client.close()
    await client.close()
