"""``bench_tables`` starts each game as the page's "Play now" button does: a POST with the
person's session and a CSRF token, to their server, which writes the game (and wakes its own
runner for the bots' first cards)."""

import asyncio
import ssl

import httpx
import pytest
from django.core.asgi import get_asgi_application

from games.models import Game, Seat
from lab.benchmarks.servers import new_player
from lab.benchmarks.tables import LEVEL_OF_BOT, page_client, quick_play, shared_tls

pytestmark = pytest.mark.django_db(transaction=True)  # the view runs in a thread of its own
ORIGIN = "http://127.0.0.1:8000"


class Recorded(httpx.AsyncBaseTransport):
    """The site in this process, with each request's method, path and answer kept."""

    def __init__(self):
        self.site = httpx.ASGITransport(app=get_asgi_application())
        self.seen = []

    async def handle_async_request(self, request):
        response = await self.site.handle_async_request(request)
        await response.aread()
        self.seen.append((request.method, request.url.path, response.status_code, response.text))
        return response


def _start(session_key: str, bot: str, target: int, transport=None):
    transport = transport or Recorded()

    async def run():
        async with page_client(session_key, "198.18.0.1", ORIGIN, transport) as http:
            return await quick_play(http, bot, target)

    return asyncio.run(run())


def test_a_game_is_started_through_the_page_s_form_for_the_person(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    user, key = new_player("qp", 1)
    bot = next(iter(LEVEL_OF_BOT))
    game_id = _start(key, bot, 15)
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.IN_PROGRESS and game.target == 15
    seats = Seat.objects.filter(game=game).order_by("number")
    assert [seat.user_id for seat in seats if seat.user_id] == [user.pk]
    assert {seat.bot for seat in seats if not seat.user_id} == {bot}


def test_the_new_game_s_page_is_loaded_after_the_start_as_a_browser_does(settings):
    """The redirect is followed: in a wave of games' ends every new game's page is rendered
    by the servers, and a benchmark that skipped it left out its costliest request."""
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    user, key = new_player("qp", 2)
    transport = Recorded()
    game_id = _start(key, next(iter(LEVEL_OF_BOT)), 10, transport)
    asked = [(method, path, status) for method, path, status, _html in transport.seen]
    assert asked == [("POST", "/games/quick-play/", 302), ("GET", f"/games/{game_id}/", 200)]
    page = transport.seen[1][3]
    assert 'id="board"' in page and user.get_username() in page  # the person's own table


def test_a_refused_start_stops_the_benchmark_with_the_reason(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1"]
    with pytest.raises(RuntimeError, match="quick play refused: 302 /accounts/login/"):
        _start("no-such-session", next(iter(LEVEL_OF_BOT)), 10)
    assert not Game.objects.exists()


def test_the_people_s_clients_load_the_ca_bundle_once_between_them(monkeypatch):
    """Each client loading it cost 18 ms of CPU: 200 people sitting down at once kept the
    benchmark's process busy for seconds, on the cores of the servers it measures."""
    loads = []
    load = ssl.SSLContext.load_verify_locations

    def counted(context, *args, **kwargs):
        loads.append(args or kwargs)
        return load(context, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    shared_tls.cache_clear()
    for number in range(5):
        page_client(f"key-{number}", f"198.18.0.{number + 1}", ORIGIN)
    assert len(loads) <= 1
