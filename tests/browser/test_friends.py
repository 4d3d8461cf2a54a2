"""Friends in two browsers: Ann follows Ben from his player page and he follows back; she
sees him online in her lobby, invites him to a private table at 360 px in dark mode; he finds
the invitation in his lobby, goes to the table and takes the seat kept for him."""

import re

import pytest

from friends.models import TableInvite
from games.models import Game, Seat

from .actions import PLAYABLE, sign_up, wait_for_a_push
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def follow(page, base: str, username: str) -> None:
    page.goto(f"{base}/players/{username}/")
    page.click("[data-action=follow]")
    page.wait_for_selector("[data-action=unfollow]")


def test_friends_follow_each_other_and_one_invites_the_other(live_server_url, new_page):
    base = live_server_url
    ann, ben = new_page(), new_page()
    ann.set_viewport_size({"width": 360, "height": 740})
    ann.emulate_media(color_scheme="dark")
    sign_up(ann, base, "ann")
    sign_up(ben, base, "ben")
    follow(ann, base, "ben")
    follow(ben, base, "ann")
    assert ben.locator("[data-friends]").count() == 1  # both ways now: friends

    ann.goto(f"{base}/games/")
    friend = ann.locator("[data-friend=ben]")
    friend.wait_for()
    assert friend.get_attribute("data-status") == "online"  # he was just on a page
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    assert ann.evaluate(fits)
    ann.screenshot(path=ARTIFACTS / "friends-lobby-360-dark.png", full_page=True)
    friend.locator("[data-action=invite-friend]").click()
    ann.wait_for_url(re.compile(r"/friends/invite/ben/$"))
    ann.check("input[name=target][value='0']")
    ann.fill("input[name=other_target]", "3")
    ann.select_option("select[name=seat_right]", "heuristic")
    ann.click("[data-action=send-invitation]")
    ann.wait_for_url(re.compile(r"/games/\d+/$"))
    wait_for_a_push(ann)
    game = Game.objects.get()
    assert not game.is_public and TableInvite.objects.get().game == game

    ben.goto(f"{base}/games/")
    ben.wait_for_selector("[data-invitation]")
    ben.screenshot(path=ARTIFACTS / "friends-invitation-1280.png")
    ben.click("[data-action=accept-invitation]")
    ben.wait_for_url(re.compile(rf"/games/{game.pk}/"))
    wait_for_a_push(ben)
    ben.click("[data-action=join]")
    ben.wait_for_selector(PLAYABLE + ", #hand")
    assert Seat.objects.get(game=game, number=1).user.username == "ben"
    ann.wait_for_selector("#board[data-status='in_progress'] #hand")

    # In Ben's lobby the invitation is gone, and Ann shows as at a table (a private one:
    # nothing to watch).
    ben.goto(f"{base}/games/")
    ben.wait_for_selector("[data-friend=ann][data-status=table]")
    assert ben.locator("[data-invitation]").count() == 0
    assert ben.locator("[data-friend=ann] a[href^='/games/']").count() == 0
