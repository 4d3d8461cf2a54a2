"""A table socket reads its user from the session cookie in its first database hop
(games/realtime/socket_auth.py), as Channels' ``AuthMiddleware`` would, without a hop of
its own."""

import pytest
from channels.auth import UserLazyObject
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.models import Session
from django.test import Client as PageClient

from games.realtime.socket_auth import read_user
from games.table import seats as services

from .helpers import assert_no_hidden_cards, board_moves, can_play, hand_cards
from .sockets import Client, db


def sockets(test):
    """A socket test: a table runner as in every server process, and no hop of Channels'."""
    test = pytest.mark.usefixtures("table_runner", "no_channels_hop")(test)
    return pytest.mark.django_db(transaction=True)(pytest.mark.asyncio(test))


def session_of(user) -> str:
    """A session key of ``user``'s, as their browser's cookie holds it after logging in."""
    browser = PageClient()
    browser.force_login(user)
    return browser.cookies["sessionid"].value


def with_cookie(client: Client, session_key: str) -> Client:
    client.communicator.scope["headers"].append((b"cookie", f"sessionid={session_key}".encode()))
    return client


@pytest.fixture
def no_channels_hop(monkeypatch):
    """Channels' own reading in a hop of its own must not run for a table socket."""

    async def refused(scope):
        raise AssertionError("the user was read in a thread hop of its own")

    monkeypatch.setattr("channels.auth.get_user", refused)


@sockets
async def test_a_socket_opens_as_the_person_its_session_cookie_names(alice):
    game = await db(services.game_quick_play)(user=alice)
    seated = with_cookie(Client(game.pk), await db(session_of)(alice))
    assert (await seated.connect())[0]
    board = await seated.board_where(lambda frame: True)
    assert len(hand_cards(board)) == 16 and can_play(board), "her hand, on her turn"

    stranger = Client(game.pk)  # no cookie: a visitor, who watches
    assert (await stranger.connect())[0]
    watched = await stranger.board_where(lambda frame: True)
    assert hand_cards(watched) == []
    await db(assert_no_hidden_cards)(watched, game, None, board_moves(watched))
    await seated.close()
    await stranger.close()


@sockets
async def test_a_session_from_before_a_password_change_opens_as_a_visitor(alice):
    """As Channels' ``get_user``: the session's hash no longer matches the user's, so the
    socket is anonymous and the session is flushed."""
    game = await db(services.game_quick_play)(user=alice)
    key = await db(session_of)(alice)
    alice.set_password("changed-Elsewhere-9")
    await db(alice.save)()
    socket = with_cookie(Client(game.pk), key)
    assert (await socket.connect())[0]
    board = await socket.board_where(lambda frame: True)
    assert hand_cards(board) == []
    await db(assert_no_hidden_cards)(board, game, None, board_moves(board))
    assert not await db(Session.objects.filter(session_key=key).exists)()
    await socket.close()


@pytest.mark.django_db
def test_read_user_reads_once_and_keeps_a_user_already_there(alice, django_assert_num_queries):
    from django.contrib.sessions.backends.db import SessionStore

    key = session_of(alice)
    scope = {"session": SessionStore(key), "user": UserLazyObject()}
    with pytest.raises(ValueError):  # unread until the first hop, as Channels' is
        bool(scope["user"].is_authenticated)
    with django_assert_num_queries(2):  # the session and the user
        assert read_user(scope).pk == alice.pk
    with django_assert_num_queries(0):
        assert read_user(scope).pk == alice.pk
    assert read_user({"user": alice}) is alice  # a user put in the scope stays
    anonymous = {"session": SessionStore(), "user": UserLazyObject()}
    assert isinstance(read_user(anonymous)._wrapped, AnonymousUser)


@sockets
async def test_a_socket_opens_in_one_database_hop(alice, monkeypatch):
    """Who the viewer is, their language, their access, their presence row, the first board
    and the chat panel: one hop to a database thread as the socket opens (each hop costs the
    server's loop a thread's round trip, in the waves of openings as games end together)."""
    from games.realtime import consumers

    hops = []

    def counted(function, *args, **kwargs):
        hops.append(getattr(function, "__name__", repr(function)))
        return real(function, *args, **kwargs)

    real = consumers.in_db_thread
    monkeypatch.setattr(consumers, "in_db_thread", counted)
    game = await db(services.game_quick_play)(user=alice)
    socket = with_cookie(Client(game.pk), await db(session_of)(alice))
    assert (await socket.connect())[0]
    assert can_play(await socket.board_where(lambda frame: True))
    assert hops == ["open_and_arrive"]
    await socket.close()


@pytest.mark.asyncio
async def test_a_socket_that_is_not_at_its_table_ignores_the_layer_coming_back():
    """A refused socket joined its table's group before the access check: when the channel
    layer comes back it shows nothing (no board of a table it may not watch)."""
    from games.realtime.consumers import TableConsumer

    consumer = TableConsumer()
    consumer.present = False

    async def must_not_run(*args, **kwargs):
        raise AssertionError("a refused socket rejoined its groups or sent a board")

    consumer.join_groups = consumer.send_board_if_newer = must_not_run
    await consumer.layer_back({"type": "layer.back"})
