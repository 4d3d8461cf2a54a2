"""A click is applied or visibly refused, never lost: a card sent twice is played once, and
a table's sockets ride out a Redis outage (moves go on, and every page hears what it
missed once Redis is back)."""

import asyncio
import time

import pytest

from games.models import Game, Play, Presence
from games.table import seats as services

from .helpers import board_moves, can_play, hand_cards
from .sockets import Client, at_my_turn, db, refused

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]


async def test_a_card_sent_twice_is_played_once(alice):
    game, client, frame = await at_my_turn(alice)
    moves, card = board_moves(frame), hand_cards(frame)[0]
    await client.drain()
    message = {"card": card, "moves": str(moves)}
    await client.send(message)
    after = await client.board_where(lambda f: board_moves(f) > moves)
    await client.drain()
    await client.send(message)  # the page was not sure it arrived: the same card again
    again = await client.frame_where(lambda f: 'id="board"' in f or "table-message" in f)
    assert 'id="board"' in again and board_moves(again) == board_moves(after)  # no refusal
    played = await db(Play.objects.filter(game=game, seat=0, card=card).count)()
    assert played == 1
    await client.close()


async def test_a_card_for_an_older_board_is_refused_and_changes_nothing(alice):
    game, client, frame = await at_my_turn(alice)
    moves = board_moves(frame)
    await client.drain()
    await client.send({"card": hand_cards(frame)[0], "moves": str(moves)})
    after = await client.board_where(lambda f: board_moves(f) > moves and can_play(f))
    await client.drain()
    stale = {"card": hand_cards(after)[0], "moves": str(moves)}  # chosen on the old board
    await refused(client, stale, "The table moved on")
    assert (await db(Game.objects.get)(pk=game.pk)).moves == board_moves(after)
    await refused(client, {"card": hand_cards(after)[0], "moves": "-1"}, "not valid")
    await client.close()


async def test_control_characters_are_refused_without_closing_the_socket(alice, bob):
    game = await db(services.game_quick_play)(user=alice)
    client = Client(game.pk, alice, 0)
    await client.connect()
    await client.board_where(lambda f: True)
    await client.drain()
    for message in ({"mute": "a\x00b"}, {"unmute": "b\x00"}, {"chat": "hi\x00"}):
        await refused(client, message, "control characters")
    await client.send({"chat": "still here"})
    await client.frame_where(lambda f: "still here" in f)
    await client.close()


async def person_to_play(game_id: int) -> int:
    """The seat of the person to play next, once the bot has played up to them."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        game = await db(Game.objects.get)(pk=game_id)
        if game.to_play in (0, 1):
            return game.to_play
        await asyncio.sleep(0.05)
    raise AssertionError("the bot never played up to a person")


async def play_first_card(client: Client) -> tuple[int, str]:
    """Play the first card of the client's hand on its turn; return (moves before, board after)."""
    frame = await client.board_where(can_play, timeout=10)
    moves = board_moves(frame)
    await client.send({"card": hand_cards(frame)[0], "moves": str(moves)})
    return moves, await client.board_where(lambda f: board_moves(f) > moves, timeout=10)


async def test_sockets_ride_out_a_redis_outage(alice, bob, private_redis):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"], is_rated=False
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    players = {0: Client(game.pk, alice, 0), 1: Client(game.pk, bob, 1)}
    for client in players.values():
        assert (await client.connect())[0]
    mover = await person_to_play(game.pk)
    await players[mover].board_where(can_play)
    for client in players.values():
        await client.drain()

    private_redis.kill()  # Redis goes away: a card still plays
    _moves, played = await play_first_card(players[mover])

    private_redis.start()  # back, and empty: every group is forgotten
    other = players[1 - mover]
    await other.board_where(lambda f: board_moves(f) >= board_moves(played), timeout=15)

    # Both sockets joined their groups again: the next move reaches the other by a push.
    turn = await person_to_play(game.pk)
    moves, _after = await play_first_card(players[turn])
    await players[1 - turn].board_where(lambda f: board_moves(f) > moves, timeout=10)
    for client in players.values():
        await client.close()
    assert not await db(Presence.objects.filter(game=game).exists)()
