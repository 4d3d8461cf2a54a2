"""Emoji reactions over the table's sockets: who sees them, who may send them, how often,
and that muting someone in chat mutes their reactions too."""

import html
import logging
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games.models import ChatMessage
from games.realtime.push import notify_table
from games.table import reactions
from games.table import seats as services

from .helpers import board_moves
from .sockets import Client

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = database_sync_to_async
NOTICE = re.compile(r'<span id="reaction-notice"[^>]*>([^<]*)</span>')


def reaction_of(frame: str) -> dict | None:
    """The reaction a frame brings to a page (its seat, id and spoken words), if any."""
    news = re.search(r'<div id="reaction-news"([^>]*)>', frame)
    if news is None or "data-reaction" not in news[1]:
        return None
    return {
        key: html.unescape(value) for key, value in re.findall(r'data-(\w+)="([^"]*)"', news[1])
    }


def answer(frame: str) -> str | None:
    """The answer a frame gives the sender of a reaction: "" (passed on) or the refusal."""
    notice = NOTICE.search(frame)
    return html.unescape(notice[1]) if notice else None


async def heard(client: Client) -> list[dict]:
    """The reactions ``client`` was shown since it last read: a board announced to the table
    now comes after anything sent to it before (a socket hears its messages in order)."""
    await db(notify_table)(client.game_id, -1)
    client.frames.clear()
    await client.frame_where(lambda frame: board_moves(frame) is not None)
    shown = [reaction_of(frame) for frame in client.frames]
    client.frames.clear()
    return [reaction for reaction in shown if reaction]


async def table_of_two(alice, bob, carol):
    """Alice (seat 0) and Bob (seat 1) at a table with a bot; Carol and a visitor watching.
    Their sockets open and quiet."""
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    clients = (
        Client(game.pk, alice, 0),
        Client(game.pk, bob, 1),
        Client(game.pk, carol),
        Client(game.pk),
    )
    for client in clients:
        assert (await client.connect())[0]
    for client in clients:
        await client.drain()
        client.frames.clear()
    return game, clients


async def close(*clients: Client):
    for client in clients:
        await client.close()


async def test_a_players_reaction_reaches_every_seat_and_spectator(alice, bob, carol):
    _game, (ann, ben, cat, visitor) = await table_of_two(alice, bob, carol)
    await ann.send({"react": "clap", "HEADERS": {"HX-Request": "true"}})
    own = await ann.frame_where(lambda frame: answer(frame) is not None)
    assert answer(own) == "" and reaction_of(own)["reaction"] == "clap"  # shown to her at once
    for client in (ben, cat, visitor):
        frame = await client.frame_where(lambda frame: reaction_of(frame) is not None)
        shown = reaction_of(frame)
        assert (shown["seat"], shown["reaction"], shown["emoji"]) == ("0", "clap", "👏")
        assert shown["said"] == "alice: Applause"  # what a screen reader says
        assert answer(frame) is None  # the others get no answer meant for the sender
    for client in (ann, ben, cat, visitor):
        assert await heard(client) == []  # once each
    assert not await db(ChatMessage.objects.exists)()  # nothing stored
    await close(ann, ben, cat, visitor)


async def test_a_reaction_is_dropped_for_whoever_muted_its_sender_in_chat(alice, bob, carol):
    game, (ann, ben, cat, visitor) = await table_of_two(alice, bob, carol)
    await ben.send({"mute": "alice"})
    await ben.frame_where(lambda frame: 'id="chat"' in frame)  # muted: his chat panel again
    await ann.send({"react": "laugh"})
    await cat.frame_where(lambda frame: reaction_of(frame) is not None)  # it went out...
    assert await heard(ben) == []  # ...and Bob's socket dropped it
    await ben.send({"unmute": "alice"})
    await ben.frame_where(lambda frame: 'id="chat"' in frame)
    await db(reactions.throttles.clear)("reaction", (alice.pk, game.pk))  # 2 s later
    await ann.send({"react": "thumbs_up"})
    shown = reaction_of(await ben.frame_where(lambda frame: reaction_of(frame) is not None))
    assert shown["reaction"] == "thumbs_up"
    await close(ann, ben, cat, visitor)


async def test_bad_reactions_and_spectators_are_refused_clearly_and_pass_nothing_on(
    alice, bob, carol
):
    _game, (ann, ben, cat, visitor) = await table_of_two(alice, bob, carol)
    for client, message, reason in (
        (ann, {"react": "nope"}, "There is no such reaction."),
        (ann, {"react": 12}, "There is no such reaction."),
        (ann, {"react": ""}, "There is no such reaction."),
        (ann, {"react": None}, "There is no such reaction."),
        (ann, {"react": "<b>clap</b>"}, "There is no such reaction."),
        (cat, {"react": "clap"}, "Only the players at this table can react."),
        (visitor, {"react": "clap"}, "Only the players at this table can react."),
    ):
        await client.send(message)
        frame = await client.frame_where(lambda frame: answer(frame) is not None)
        assert answer(frame) == reason, (message, frame)
        assert reaction_of(frame) is None
    for client in (ann, ben, cat, visitor):
        assert await heard(client) == []
    # None of it counted against Alice: her first real reaction goes through.
    await ann.send({"react": "wow"})
    assert answer(await ann.frame_where(lambda frame: answer(frame) is not None)) == ""
    await close(ann, ben, cat, visitor)


async def test_fifty_reactions_at_once_from_five_tabs_pass_one(alice, bob, carol, shared_cache):
    """One reaction every 2 s per person and table, however many sockets send at once: the
    slot is counted atomically in the shared cache (Redis across server processes)."""
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=bob)
    tabs = [Client(game.pk, alice, 0) for _ in range(5)]
    ben = Client(game.pk, bob, 1)
    for client in (*tabs, ben):
        assert (await client.connect())[0]
    for client in (*tabs, ben):
        await client.drain()
        client.frames.clear()
    answers = await burst_from(tabs, 10)
    assert len(answers) == 50
    assert answers.count("") == 1, answers
    assert answers.count("One reaction at a time: wait a moment.") == 49
    await ben.frame_where(lambda frame: reaction_of(frame) is not None)
    assert await heard(ben) == []  # the one, and no other
    await close(*tabs, ben)


async def test_fifty_reactions_at_once_pass_six_a_minute(
    alice, bob, carol, shared_cache, monkeypatch
):
    """The minute's allowance holds under a burst too (the 2 s limit set aside here)."""
    monkeypatch.setattr(reactions, "LIMITS", (("reactions", 6, 60),))
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    tabs = [Client(game.pk, alice, 0) for _ in range(5)]
    for client in tabs:
        assert (await client.connect())[0]
    for client in tabs:
        await client.drain()
        client.frames.clear()
    answers = await burst_from(tabs, 10)
    assert answers.count("") == 6, answers
    assert answers.count("That is a lot of reactions: wait a minute.") == 44
    await close(*tabs)


async def burst_from(tabs: list[Client], each: int) -> list[str]:
    """Send ``each`` reactions from every tab at once; return every answer (each reaction
    gets exactly one: "" when passed on, else the refusal)."""
    import asyncio

    await asyncio.gather(*(tab.send({"react": "clap"}) for tab in tabs for _ in range(each)))
    answers = []
    for tab in tabs:
        for _ in range(each):
            answers.append(answer(await tab.frame_where(lambda frame: answer(frame) is not None)))
    return answers


async def test_a_reaction_the_channel_layer_fails_to_pass_on_is_lost_with_a_log_line(
    alice, bob, carol, monkeypatch, caplog
):
    _game, (ann, ben, cat, visitor) = await table_of_two(alice, bob, carol)

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is restarting")

    monkeypatch.setattr(get_channel_layer(), "group_send", down)
    with caplog.at_level(logging.WARNING, logger="games.realtime.reaction_socket"):
        await ann.send({"react": "good_game"})
        frame = await ann.frame_where(lambda frame: answer(frame) is not None)
        # Her socket handles its messages in order: once the next one is answered, the
        # first one's broadcast has been tried.
        await ann.send({"react": "nope"})
        await ann.frame_where(lambda frame: answer(frame) is not None)
    assert answer(frame) == "" and reaction_of(frame)["reaction"] == "good_game"  # her page
    assert "Could not pass on a reaction" in caplog.text
    monkeypatch.undo()
    assert await heard(ben) == []  # lost: nobody catches up on a reaction
    await close(ann, ben, cat, visitor)
