"""Chat over the table's sockets: who hears what, refusals, muting, and nothing hidden leaks."""

import re

import pytest
from channels.db import database_sync_to_async

from games.models import ChatMessage, ChatReport
from games.realtime.push import notify_table
from games.table import seats as services

from .helpers import board_moves
from .sockets import Client, is_presence, scan_frames

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = database_sync_to_async


def said(frames: list[str]) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", match)
        for frame in frames
        for match in re.findall(r'<span class="said">(.*?)</span>', frame)
    ]


async def next_frame(client: Client) -> str:
    """The socket's next chat frame (a line, a notice, the panel). Boards and presence
    frames are skipped: who came and went, and boards redrawn for it, reach the sockets
    whenever the table's announcements go out, which a test does not control."""
    return await client.frame_where(
        lambda frame: not is_presence(frame) and board_moves(frame) is None
    )


async def heard_nothing(*clients: Client) -> bool:
    """Whether no chat line was sent to any of the table's ``clients`` since they last read:
    a board announced to the table now comes after anything sent to them before (a socket
    hears its messages in order; no waiting out a silence that a slow machine outlasts)."""
    await db(notify_table)(clients[0].game_id, -1)
    heard = []
    for client in clients:
        client.frames.clear()
        await client.frame_where(lambda frame: board_moves(frame) is not None)
        heard += client.frames
        client.frames.clear()
    chat = [frame for frame in heard if 'id="chat' in frame and board_moves(frame) is None]
    return not said(heard) and not chat


async def answered_nothing(client: Client) -> bool:
    """Whether ``client``'s last message got no answer: the refusal of an empty chat line,
    asked now, must be the next frame (a socket answers its messages in order)."""
    await client.send({"chat": ""})
    frame = await next_frame(client)
    return 'id="chat-notice"' in frame and "Write something" in frame


async def test_players_and_spectators_hear_only_their_own_room(alice, bob, carol, make_user):
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    dave = await db(make_user)("dave")
    ann, ben = Client(game.pk, alice, 0), Client(game.pk, bob, 1)
    cat, dan = Client(game.pk, carol), Client(game.pk, dave)
    clients = (ann, ben, cat, dan)
    for client in clients:
        assert (await client.connect())[0]
    for client in clients:
        await client.drain()
        client.frames.clear()

    await ann.send({"chat": "good luck, Ben"})
    await next_frame(ann)
    await next_frame(ben)
    assert said(ben.frames) == ["good luck, Ben"]
    assert said(ann.frames) == ["good luck, Ben"]  # shown to the sender at once
    assert await heard_nothing(*clients)  # the spectators heard nothing

    await cat.send({"chat_preset": "hello"})
    await next_frame(cat)
    await next_frame(dan)
    assert said(dan.frames) == ["Hello!"]
    assert await heard_nothing(*clients)  # the players heard nothing
    for client in clients:
        await client.close()
        await scan_frames(client, game)


async def two_players(alice, bob) -> tuple[Client, Client]:
    """Alice and Bob at one table with a bot, their sockets open and quiet."""
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    ann, ben = Client(game.pk, alice, 0), Client(game.pk, bob, 1)
    for client in (ann, ben):
        assert (await client.connect())[0]
    for client in (ann, ben):
        await client.drain()
    return ann, ben


async def test_refusals_over_the_socket_are_clear_and_store_nothing(alice, bob):
    ann, ben = await two_players(alice, bob)
    for message, reason in (
        ({"chat": ""}, "Write something"),
        ({"chat": "z" * 250}, "Keep it to 200"),
        ({"chat": "<img src=x onerror=alert(1)>"}, "plain text"),
        ({"chat": 12}, "Write something"),
        ({"chat_preset": "nope"}, "no such phrase"),
        ({"mute": "alice"}, "yourself"),
        ({"report": 999}, "no such message"),
    ):
        await ann.send(message)
        frame = await next_frame(ann)
        assert 'id="chat-notice"' in frame and "error" in frame and reason in frame, frame
    assert not await db(ChatMessage.objects.exists)()
    assert await heard_nothing(ann, ben)
    for n in range(3):
        await ann.send({"chat": f"quick {n}"})
        await next_frame(ann)
    await ann.send({"chat": "too quick"})
    assert "too fast" in await next_frame(ann)
    assert await db(ChatMessage.objects.count)() == 3
    for client in (ann, ben):
        await client.close()


async def test_a_muted_person_is_hidden_live_and_can_be_reported(alice, bob):
    ann, ben = await two_players(alice, bob)
    await ben.send({"chat": "first words"})
    line = await next_frame(ann)
    message_id = int(re.search(r'data-chat-id="(\d+)"', line)[1])
    await ann.send({"report": message_id})
    assert "staff will look" in await next_frame(ann)
    assert await db(ChatReport.objects.filter(message_id=message_id, reporter=alice).exists)()

    await ann.send({"mute": "bob"})
    panel = await next_frame(ann)
    assert 'id="chat"' in panel and "first words" not in panel and 'data-action="unmute"' in panel
    await next_frame(ben)  # his own line
    await ben.send({"chat": "second words"})
    await next_frame(ben)
    assert await heard_nothing(ann, ben)
    await ann.send({"unmute": "bob"})
    panel = await next_frame(ann)
    assert "first words" in panel and "second words" in panel
    for client in (ann, ben):
        await client.close()


async def test_a_chat_line_lost_on_the_way_comes_with_the_next_ask(alice, bob):
    """As for boards: after a silence the page asks, and gets the chat if anything was said
    since the last line it showed (and nothing if not)."""
    from games.realtime.consumers import SYNC
    from games.table.chat import chat_post

    ann, ben = await two_players(alice, bob)
    await ann.send(SYNC)
    assert await answered_nothing(ann)
    await db(chat_post)(game_id=ann.game_id, user=bob, text="you never heard this")
    await ann.send(SYNC)
    panel = await ann.frame_where(lambda f: 'id="chat"' in f)
    assert "you never heard this" in panel
    await ann.send(SYNC)
    assert await answered_nothing(ann)
    for client in (ann, ben):
        await client.close()


async def opening_frames(client: Client) -> list[str]:
    """What ``client``'s socket sent as it opened: its first board and what came after it
    until a board announced now (a socket sends in order)."""
    assert (await client.connect())[0]
    await client.frame_where(lambda frame: board_moves(frame) is not None)
    await db(notify_table)(client.game_id, -1)
    await client.frame_where(lambda frame: board_moves(frame) is not None)
    return [frame for frame in client.frames if board_moves(frame) is None]


def chat_panels(frames: list[str]) -> list[str]:
    return [frame for frame in frames if '<section id="chat"' in frame]


async def test_a_page_whose_chat_is_up_to_date_gets_no_chat_panel_as_its_socket_opens(
    alice, bob
):
    """The page says which room and latest line it shows (``?chat=players.<id>``): nothing
    newer, no panel; a line said since, a room that is no longer the viewer's, no (or a
    malformed) mark, a line hidden or muted since, and the panel comes as before."""
    from games.table.chat import chat_mute, chat_post, chat_unmute

    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    first = await db(chat_post)(game_id=game.pk, user=bob, text="first")

    up_to_date = Client(game.pk, alice, 0, query=f"?chat=players.{first.pk}")
    assert chat_panels(await opening_frames(up_to_date)) == []
    await db(chat_post)(game_id=game.pk, user=bob, text="second")
    for query in (f"?chat=players.{first.pk}", f"?chat=spectators.{first.pk}", "", "?chat=x.1"):
        client = Client(game.pk, alice, 0, query=query)
        (panel,) = chat_panels(await opening_frames(client))
        assert "second" in panel and "first" in panel, query
        await client.close()

    # A line the page may show, hidden by staff since, or by someone muted since: the panel
    # comes again (without it), as it does for a table that has such a line at all.
    second = await db(ChatMessage.objects.get)(text="second")
    shows_second = f"?chat=players.{second.pk}"
    quiet = Client(game.pk, alice, 0, query=shows_second)
    assert chat_panels(await opening_frames(quiet)) == []
    await quiet.close()
    await db(ChatMessage.objects.filter(pk=first.pk).update)(hidden=True)
    hidden = Client(game.pk, alice, 0, query=shows_second)
    (panel,) = chat_panels(await opening_frames(hidden))
    assert "second" in panel and ">first<" not in panel
    await hidden.close()
    await db(ChatMessage.objects.filter(pk=first.pk).update)(hidden=False)
    await db(chat_mute)(user=alice, username="bob")
    muted = Client(game.pk, alice, 0, query=shows_second)
    (panel,) = chat_panels(await opening_frames(muted))
    assert ">second<" not in panel and "chat-muted" in panel, panel
    await muted.close()
    await db(chat_unmute)(user=alice, username="bob")

    # The quiet socket knows what its page shows: its next ask brings the line it missed
    # (said without a socket), then nothing more; and it hears what is said next.
    from games.realtime.consumers import SYNC

    await up_to_date.send(SYNC)
    panel = await up_to_date.frame_where(lambda frame: '<section id="chat"' in frame)
    assert "second" in panel
    await up_to_date.send(SYNC)
    assert await answered_nothing(up_to_date)
    ben = Client(game.pk, bob, 1)
    assert (await ben.connect())[0]
    await ben.drain()
    await ben.send({"chat": "third"})
    await up_to_date.frame_where(lambda frame: "third" in frame)
    for client in (up_to_date, ben):
        await client.close()
        await scan_frames(client, game)
