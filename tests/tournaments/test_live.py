"""A tournament page's socket (ws/tournaments/<id>/), end to end through the ASGI
application: the standings arrive when people join, your table's link arrives when you are
seated (only yours), and the standings when a game is scored; a Redis outage leaves the
socket open, and it sends the standings afresh once Redis is back."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from coins_site.asgi import application
from games.realtime.channels_adapter import last_reads_finished
from tests.games.sockets import disconnected
from tournaments.consumers import CLOSE_NO_TOURNAMENT
from tournaments.live import standings_changed
from tournaments.models import TournamentGame
from tournaments.pairing import tournament_advance
from tournaments.services import entry_join

from .helpers import finish

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

db = database_sync_to_async


class Socket:
    def __init__(self, tournament_id: int, user=None):
        self.communicator = WebsocketCommunicator(
            application,
            f"/ws/tournaments/{tournament_id}/",
            headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")],
        )
        if user is not None:
            self.communicator.scope["user"] = user

    async def connect(self) -> str:
        connected, _ = await self.communicator.connect(timeout=10)
        assert connected
        return await self.communicator.receive_from(timeout=10)  # the standings as they are

    async def close(self) -> None:
        await disconnected(self.communicator)

    async def frame_where(self, predicate, timeout=10.0) -> str:
        """The first frame from now on that satisfies ``predicate`` (others are skipped)."""
        while True:
            frame = await self.communicator.receive_from(timeout=timeout)
            assert frame.lstrip().startswith('<div id="tournament-live"')
            if predicate(frame):
                return frame


async def test_standings_and_your_table_arrive_over_the_socket(make_tournament, people):
    tournament = await db(make_tournament)("arena")
    first, second, third = await db(people)(3)
    mine, visitor = Socket(tournament.pk, first), Socket(tournament.pk)
    assert "Nobody has joined yet." in await mine.connect()
    await visitor.connect()
    for person in (first, second, third):
        await db(entry_join)(tournament_id=tournament.pk, user=person)
    frame = await mine.frame_where(lambda f: f.count("data-player=") == 3)
    assert 'class="you"' in frame and 'hx-trigger="every 3s"' in frame
    await visitor.frame_where(lambda f: f.count("data-player=") == 3)

    assert await db(tournament_advance)(tournament_id=tournament.pk) == 1
    game = (await db(TournamentGame.objects.select_related("game").get)()).game
    frame = await mine.frame_where(lambda f: 'data-action="tournament-table"' in f)
    assert game.get_absolute_url() in frame
    frame = await visitor.frame_where(lambda f: 'data-status="running"' in f)
    assert 'data-action="tournament-table"' not in frame  # the link is for the seated only

    await db(finish)(game)
    frame = await visitor.frame_where(lambda f: 'data-points="4"' in f)
    assert frame.count('data-points="0"') == 0
    await mine.close()
    await visitor.close()


async def test_a_socket_for_no_tournament_is_closed():
    socket = Socket(987654)
    connected, _ = await socket.communicator.connect(timeout=10)
    assert connected
    assert (await socket.communicator.receive_output(timeout=10))["code"] == CLOSE_NO_TOURNAMENT
    # The browser answers the close frame; the handler then ends (``wait`` swallows its own
    # timeout, hence the check that the application is done).
    closing = {"type": "websocket.disconnect", "code": CLOSE_NO_TOURNAMENT}
    await socket.communicator.send_input(closing)
    await socket.communicator.wait(timeout=10)
    assert socket.communicator.future.done() and not socket.communicator.future.cancelled()
    await last_reads_finished()


async def test_a_notice_outside_a_transaction_reaches_the_sockets(make_tournament, alice):
    tournament = await db(make_tournament)("swiss")
    socket = Socket(tournament.pk, alice)
    await socket.connect()
    await db(standings_changed)(tournament.pk)
    assert "Nobody has joined yet." in await socket.frame_where(lambda f: True)
    await socket.close()


async def test_a_socket_rides_out_a_redis_outage_and_sends_what_it_missed(
    make_tournament, people, private_redis
):
    tournament = await db(make_tournament)("arena")
    watcher, first, second = await db(people)(3)
    socket = Socket(tournament.pk, watcher)
    assert "Nobody has joined yet." in await socket.connect()

    private_redis.kill()  # the join commits; its notice is lost with Redis
    await db(entry_join)(tournament_id=tournament.pk, user=first)
    private_redis.start()  # back, and empty: the socket's group is forgotten
    await socket.frame_where(lambda f: f.count("data-player=") == 1, timeout=15)

    # The socket joined its group again: the next join reaches it by a push.
    await db(entry_join)(tournament_id=tournament.pk, user=second)
    await socket.frame_where(lambda f: f.count("data-player=") == 2)
    await socket.close()


async def test_one_change_renders_the_standings_once_for_every_socket(
    make_tournament, people, monkeypatch
):
    """Six people and two visitors watch: one change is one render of the standings in this
    process (per language), and each socket still marks only its own viewer's row."""
    from tournaments import live

    tournament = await db(make_tournament)("arena")
    everyone = await db(people)(6)
    for person in everyone:
        await db(entry_join)(tournament_id=tournament.pk, user=person)
    sockets = [Socket(tournament.pk, person) for person in everyone]
    sockets += [Socket(tournament.pk), Socket(tournament.pk)]
    for socket in sockets:
        await socket.connect()
    renders = []
    render = live.render_to_string

    def counting(name, context=None, *args, **kwargs):
        renders.append(name)
        return render(name, context, *args, **kwargs)

    monkeypatch.setattr(live, "render_to_string", counting)
    await db(standings_changed)(tournament.pk)
    frames = [await socket.communicator.receive_from(timeout=10) for socket in sockets]
    assert renders.count("tournaments/detail.html#standings") == 1
    assert renders.count("tournaments/detail.html#live") == len(sockets)
    for person, frame in zip(everyone, frames, strict=False):
        assert frame.count('class="you"') == 1
        assert f'<tr class="you" data-player="{person.username}"' in frame
    assert all('class="you"' not in frame for frame in frames[6:])
    for socket in sockets:
        await socket.close()
