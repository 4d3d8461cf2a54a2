"""A socket to someone else's duplicate game is refused as if there were no table, also with
the game's invite token; its player's own socket is served."""

import pytest

from duplicate.services import duplicate_play
from tests.games.sockets import Client, db

from .conftest import DAY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def closed_with(client: Client) -> int:
    """Accepted, so the page hears the reason, then closed with it at once."""
    assert (await client.connect())[0]
    output = await client.communicator.receive_output(timeout=10)
    assert output["type"] == "websocket.close"
    return output["code"]


async def test_only_the_player_connects_to_a_duplicate_table(alice, bob):
    game = await db(duplicate_play)(user=alice, number=1, day=DAY)
    assert await closed_with(Client(game.pk, bob)) == 4404
    assert await closed_with(Client(game.pk, bob, query=f"?invite={game.invite_token}")) == 4404
    assert await closed_with(Client(game.pk)) == 4404  # anonymous
    own = Client(game.pk, alice, 0)
    assert (await own.connect())[0]
    assert 'id="board"' in await own.receive(timeout=10)
    await own.close()


async def test_only_the_people_seated_at_an_event_table_connect_to_it(make_user):
    from duplicate.event_services import event_start

    from .helpers import an_event, tables_of

    people = [await db(make_user)(f"w{n}") for n in range(6)]
    event = await db(an_event)(people)
    await db(event_start)(event.pk)
    game = (await db(tables_of)(event, 1))[0].game
    seated = await db(lambda: {s.user_id: s.number for s in game.seats.all() if s.user_id})()
    rival = next(p for p in people if p.pk not in seated)  # at the other table of the deal
    assert await closed_with(Client(game.pk, rival)) == 4404
    assert await closed_with(Client(game.pk, rival, query=f"?invite={game.invite_token}")) == 4404
    assert await closed_with(Client(game.pk)) == 4404  # anonymous
    player = next(p for p in people if p.pk in seated)
    own = Client(game.pk, player, seated[player.pk])
    assert (await own.connect())[0]
    assert 'id="board"' in await own.receive(timeout=10)
    await own.close()
