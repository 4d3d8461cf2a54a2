"""Over the table's socket: who is connected, sessions that end close their sockets, and a
socket that opens while the channel layer is down."""

import re
from datetime import timedelta

import pytest
from channels.layers import get_channel_layer
from django.test import Client as PageClient

from games.realtime.consumers import SYNC
from games.table import seats as services

from .helpers import board_moves
from .sockets import Client, db, scan_frames

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),  # as in every server process
]


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
