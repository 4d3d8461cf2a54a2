"""Two newcomers join an arena in two browsers: both are seated at one table as soon as the
arena pairs them (a bot fills the third seat), play it to the end by clicking, and find
their points in the standings."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.models import Entry, Tournament, TournamentGame

from .actions import play_to_the_end, sign_up

pytestmark = pytest.mark.browser
BOT_PAUSE = 0


@pytest.fixture(scope="module", autouse=True)
def quick_arena():
    """Quick bots, leftovers seated with a bot at once, pairing looked at often; set before
    the module's server forks, so it holds there too."""
    from django.conf import settings

    names = ("COINS_TOURNAMENT_BOT", "COINS_ARENA_BOTS_AFTER", "COINS_TOURNAMENT_POLL")
    saved = [getattr(settings, name) for name in names]
    for name, value in zip(names, ("heuristic", 0, 0.1), strict=True):
        setattr(settings, name, value)
    yield
    for name, value in zip(names, saved, strict=True):
        setattr(settings, name, value)


def test_two_people_join_an_arena_and_play_their_table(live_server_url, new_page):
    now = timezone.now()
    arena = Tournament.objects.create(
        name="Evening arena",
        kind="arena",
        starts_at=now + timedelta(hours=1),  # moved to now once both have joined
        ends_at=now + timedelta(hours=1),
        target=3,
        is_rated=False,
    )
    pages = {}
    for name in ("ana", "ben"):
        page = pages[name] = new_page()
        sign_up(page, live_server_url, name)
        page.goto(f"{live_server_url}/games/")
        page.get_by_role("link", name="Tournaments").first.click()
        page.click(f"a[href='/tournaments/{arena.pk}/']")
        page.click("[data-action=tournament-join]")
        page.wait_for_selector("[data-action=tournament-leave]")
    Tournament.objects.filter(pk=arena.pk).update(starts_at=timezone.now())  # it begins
    tables = set()
    for page in pages.values():  # the page learns of the table by itself
        page.wait_for_selector("[data-action=tournament-table]", timeout=30_000)
        page.click("[data-action=tournament-table]")
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        page.wait_for_selector("body[data-ws='open']")
        tables.add(page.url)
    assert len(tables) == 1  # seated together
    game = TournamentGame.objects.get(tournament=arena).game
    assert sorted(game.seats.exclude(user=None).values_list("user__username", flat=True)) == [
        "ana",
        "ben",
    ]
    play_to_the_end(pages)
    for name, page in pages.items():
        page.goto(f"{live_server_url}/tournaments/{arena.pk}/")
        page.wait_for_selector(f"[data-player={name}]")
    points = dict(Entry.objects.filter(tournament=arena).values_list("user__username", "points"))
    assert sum(points.values()) > 0 and set(points) == {"ana", "ben"}
    shown = {
        name: int(pages["ana"].get_attribute(f"[data-player={name}]", "data-points"))
        for name in points
    }
    assert shown == points
