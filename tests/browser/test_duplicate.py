"""The daily duplicate in the browser: two people, each in a browser of their own, play
today's game 1 (the same deal) and then both find both results on the day's table, with
the game's spread; each sees the replay of their own game only."""

import pytest

from games.models import Game

from .actions import play_to_the_end, sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module", autouse=True)
def short_duplicate_games():
    """Short games against quick bots on a fixed day; set before the module's server forks,
    so it holds there too."""
    from django.conf import settings

    names = ("COINS_DUPLICATE_TARGET", "COINS_DUPLICATE_BOT", "COINS_DUPLICATE_TODAY")
    saved = [getattr(settings, name) for name in names]
    # A fixed day, far ahead: the run can cross midnight UTC and the day stays open.
    for name, value in zip(names, (3, "heuristic", "2100-01-01"), strict=True):
        setattr(settings, name, value)
    yield
    for name, value in zip(names, saved, strict=True):
        setattr(settings, name, value)


def test_two_people_play_the_same_deal_and_compare_their_results(live_server_url, new_page):
    pages = {}
    for name in ("ana", "ben"):
        page = pages[name] = new_page()
        sign_up(page, live_server_url, name)
        page.goto(f"{live_server_url}/games/")
        page.get_by_role("link", name="Daily duplicate").click()
        page.locator("[data-number='1'] [data-action=duplicate-play]").click()
        page.wait_for_url(f"{live_server_url}/games/*/")
        page.wait_for_selector("body[data-ws='open']")
        play_to_the_end({name: page})
    games = {name: Game.objects.get(seats__user__username=name) for name in pages}
    assert games["ana"].seed == games["ben"].seed and games["ana"].pk != games["ben"].pk
    winners = sum(game.winner_seat == 0 for game in games.values())
    pages["ben"].set_viewport_size({"width": 360, "height": 740})
    pages["ben"].emulate_media(color_scheme="dark")
    for name, page in pages.items():
        page.goto(f"{live_server_url}/duplicate/")
        page.screenshot(path=str(ARTIFACTS / f"duplicate-{name}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        game_1 = page.locator("[data-number='1']")
        assert game_1.locator("[data-spread]").inner_text() == (
            f"Of 2 players, {winners} won this deal."
        )
        assert game_1.locator("[data-result]").count() == 2
        assert page.locator("[data-standing]").count() == 2
        assert page.locator("[data-position]").is_visible()
        replays = game_1.locator("[data-replay]")
        assert replays.count() == 1
        assert replays.get_attribute("href") == f"/games/{games[name].pk}/replay/"
        button = game_1.locator("[data-action=duplicate-play]")
        assert button.get_attribute("data-state") == "finished"
        button.click()  # back to the finished game, not a new one
        page.wait_for_url(f"{live_server_url}/games/{games[name].pk}/")
    assert Game.objects.count() == 2
