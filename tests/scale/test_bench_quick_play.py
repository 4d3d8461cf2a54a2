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


def _start(session_key: str, bot: str, target: int):
    transport = httpx.ASGITransport(app=get_asgi_application())

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
