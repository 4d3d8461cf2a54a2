"""A pushed board is exactly what a page load shows its viewer.

Boards arrive two ways: in the table page, rendered for the request, and over the table's
socket, rendered for the person behind it. Every state of a whole game is rendered both ways
for every kind of viewer (each seated person, a signed-in spectator, a signed-out visitor,
with and without an invite) and compared: same user, same buttons, and forms whose CSRF
token is valid for that viewer's cookie. A signed-in person once saw "Take this seat"
replaced by "Log in to take a seat." this way, and every pushed form failed CSRF.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.utils import timezone

from coins_site.asgi import application
from games.engine import CARD_CODES
from games.models import Game
from games.realtime.push import notify_table
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import board_moves
from .sockets import disconnected

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = database_sync_to_async
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
ORIGIN = b"http://localhost"  # a host the socket's origin check allows


def browser() -> Client:
    return Client(HTTP_HOST="localhost")


def element(html: str, element_id: str) -> str:
    """The outer HTML of the ``<div>`` with ``element_id`` (nested divs counted)."""
    start = html.index(f'<div id="{element_id}"')
    depth, position = 0, start
    for tag in re.finditer(r"<(/?)div\b[^>]*>", html[start:]):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            position = start + tag.end()
            break
    return html[start:position]


def with_tokens_checked(board: str, secret: str) -> str:
    """``board`` with each CSRF token replaced by a marker, once checked against the
    viewer's cookie secret (masked tokens differ on every render; their secret must not)."""
    tokens = CSRF_FIELD.findall(board)
    for token in tokens:
        assert _unmask_cipher_token(token) == secret, "a form carries a token for another cookie"
    return CSRF_FIELD.sub('name="csrfmiddlewaretoken" value="CSRF"', board)


@dataclass
class Viewer:
    """One person looking at the table: a browser's cookies, its page, and its socket."""

    name: str
    user: object | None
    query: str = ""
    client: Client = field(default_factory=browser)
    communicator: WebsocketCommunicator | None = None

    def page_board(self, game: Game) -> str:
        response = self.client.get(f"{game.get_absolute_url()}{self.query}")
        assert response.status_code == 200, (self.name, response.status_code)
        html = response.content.decode()
        self.socket_path = html_lib.unescape(re.search(r'ws-connect="([^"]+)"', html)[1])
        return element(html, "board")

    def cookie_header(self) -> bytes:
        return "; ".join(f"{k}={m.value}" for k, m in self.client.cookies.items()).encode()

    @property
    def csrf_secret(self) -> str:
        return self.client.cookies[settings.CSRF_COOKIE_NAME].value

    async def connect(self, game: Game) -> str:
        await db(self.page_board)(game)  # the page sets the cookies and names the socket
        self.communicator = WebsocketCommunicator(
            application,
            self.socket_path,
            headers=[
                (b"origin", ORIGIN),
                (b"host", b"localhost"),
                (b"cookie", self.cookie_header()),
            ],
        )
        connected, code = await self.communicator.connect(timeout=10)  # not 1 s: a loaded machine
        assert connected, (self.name, code)
        return await self.communicator.receive_from(timeout=5)

    async def close(self) -> None:
        await disconnected(self.communicator)

    async def compare(self, game: Game, pushed: str) -> str:
        """Assert the pushed board equals this viewer's page board; return the page's."""
        page = await db(self.page_board)(game)
        secret = self.csrf_secret
        assert with_tokens_checked(pushed.strip(), secret) == with_tokens_checked(page, secret), (
            self.name,
            board_moves(page),
        )
        return page


async def settle(viewers: list[Viewer]) -> None:
    """Take the boards redrawn as the others came (their presence), until all is quiet."""
    for viewer in viewers:
        for _frame in range(50):  # a few presence redraws, never an endless stream
            if await viewer.communicator.receive_nothing(timeout=0.2):
                break
            await viewer.communicator.receive_from()
        else:
            raise AssertionError(f"{viewer.name}'s socket never fell quiet")


async def next_board(viewer: Viewer) -> str:
    """The next board pushed to ``viewer``'s socket; presence frames (who came and went,
    sent whenever the table's announcements go out) are skipped."""
    while True:
        frame = await viewer.communicator.receive_from(timeout=5)
        if board_moves(frame) is not None:
            return frame


async def pushed(viewers: list[Viewer]) -> dict[str, str]:
    """The board each socket is pushed next (every change tells the table by itself)."""
    return {viewer.name: await next_board(viewer) for viewer in viewers}


async def compare_all(viewers: list[Viewer], game: Game, announce: bool = False) -> dict:
    """Compare the next pushed board of every viewer with their page; ``announce`` asks for
    one (a push with no change)."""
    if announce:
        await db(notify_table)(game.pk, -1)
    boards = await pushed(viewers)
    return {v.name: await v.compare(game, boards[v.name]) for v in viewers}


def step(game: Game, people: dict[int, object]) -> int:
    """Play the next card of ``game``: a bot's choice, or the person's first card."""
    loaded = game_load(Game.objects.get(pk=game.pk))
    seat = loaded.state.to_play
    if seat not in people:  # one bot card: its pause is long, so serve it as if later
        flow.run_due(game.pk, now=timezone.now() + timedelta(hours=2))
        return Game.objects.get(pk=game.pk).moves
    card = CARD_CODES[min(loaded.state.hands[seat])]
    return flow.play_card(game_id=game.pk, user=people[seat], card=card).moves


@pytest.fixture
def bots_played_by_the_test(monkeypatch, settings):
    """The test plays the bots itself, one card at a time (a long pause: none follows a
    person's card in the same move)."""
    settings.COINS_BOT_PAUSE = 3600


async def test_every_board_of_a_private_game_is_the_same_pushed_or_loaded(
    alice, bob, carol, bots_played_by_the_test
):
    game = await db(services.game_create)(
        creator=alice, target=2, seat_kinds=["me", "open", "heuristic"], is_public=False
    )
    invite = f"?invite={game.invite_token}"
    viewers = [
        Viewer("alice", alice),
        Viewer("bob", bob, query=invite),  # follows the link, then takes the open seat
        Viewer("carol", carol, query=invite),  # a signed-in spectator
        Viewer("anonymous", None, query=invite),  # signed out: may log in or sign up to join
    ]
    for viewer in viewers:
        if viewer.user is not None:
            await db(viewer.client.force_login)(viewer.user)
        board = await viewer.connect(game)
        await viewer.compare(game, board)
    await settle(viewers)

    boards = await compare_all(viewers, game, announce=True)
    assert 'data-action="join"' in boards["bob"] and 'data-action="join"' in boards["carol"]
    assert 'data-action="join"' not in boards["alice"] + boards["anonymous"]
    assert "Cancel the table" in boards["alice"]  # the only person there: leaving closes it
    assert ">you<" in boards["alice"]
    assert f"next=/games/{game.pk}/%3Finvite%3D{game.invite_token}" in boards["anonymous"]
    assert 'data-action="signup-to-join"' in boards["anonymous"]
    assert 'data-watching="3"' in boards["alice"]  # bob, carol and a signed-out visitor

    await db(services.seat_join)(game_id=game.pk, user=bob, invite_token=game.invite_token)
    boards = await compare_all(viewers, game)
    assert all('data-status="in_progress"' in board for board in boards.values())
    assert 'data-watching="2"' in boards["alice"]  # bob sits down: he no longer watches
    assert boards["carol"].count('data-presence="here"') == 2
    for name in ("alice", "bob"):
        assert 'data-action="resign"' in boards[name] and 'id="hand"' in boards[name]
    for name in ("carol", "anonymous"):
        assert 'data-action="resign"' not in boards[name] and 'id="hand"' not in boards[name]

    people = {0: alice, 1: bob}
    states = 1
    while True:
        await db(step)(game, people)
        boards = await compare_all(viewers, game)
        states += 1
        if 'data-status="finished"' in boards["alice"]:
            break
    assert states >= 4  # a whole trick at least (one trick of three Coins cards can win)
    for name in ("alice", "bob"):
        assert 'data-action="quick-play"' in boards[name]
        assert 'data-action="resign"' not in boards[name]
    assert 'data-action="quick-play"' in boards["carol"]
    assert 'data-action="quick-play"' not in boards["anonymous"]
    for viewer in viewers:
        await viewer.close()


async def test_waiting_cancelled_and_abandoned_boards_are_the_same_pushed_or_loaded(
    alice, bob, carol, bots_played_by_the_test
):
    table = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "open"]
    )
    viewers = [Viewer("alice", alice), Viewer("bob", bob), Viewer("anonymous", None)]
    for viewer in viewers:
        if viewer.user is not None:
            await db(viewer.client.force_login)(viewer.user)
        await viewer.compare(table, await viewer.connect(table))
    await settle(viewers)

    await db(services.seat_join)(game_id=table.pk, user=bob)
    boards = await compare_all(viewers, table)
    assert "Cancel the table" not in boards["alice"] and 'data-action="leave"' in boards["bob"]
    assert 'data-action="join"' not in boards["anonymous"]
    await db(services.seat_leave)(game_id=table.pk, user=bob)
    boards = await compare_all(viewers, table)
    assert "Cancel the table" in boards["alice"]
    await db(services.seat_leave)(game_id=table.pk, user=alice)
    boards = await compare_all(viewers, table)
    assert all('data-status="abandoned"' in board for board in boards.values())
    assert not any('data-action="join"' in board for board in boards.values())
    for viewer in viewers:
        await viewer.close()

    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "open", "random"]
    )
    await db(services.seat_join)(game_id=game.pk, user=carol)
    viewers = [Viewer("alice", alice), Viewer("carol", carol), Viewer("bob", bob)]
    for viewer in viewers:
        await db(viewer.client.force_login)(viewer.user)
        await viewer.compare(game, await viewer.connect(game))
    await settle(viewers)
    await db(flow.resign)(game_id=game.pk, user=carol)
    boards = await compare_all(viewers, game)
    for board in boards.values():
        assert 'data-status="abandoned"' in board and 'data-action="resign"' not in board
    for viewer in viewers:
        await viewer.close()
