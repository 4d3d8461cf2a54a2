"""Cards on a server's event loop take turns (``COINS_LOOP_CARDS_AT_ONCE``) through the
real socket: a card that arrives while another holds the turn is played once that one is
done, and a turn held too long (a statement stuck on PostgreSQL) holds no card back."""

import asyncio

import pytest
from django.db import connection

from games.models import Play
from games.realtime import loop_card
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
