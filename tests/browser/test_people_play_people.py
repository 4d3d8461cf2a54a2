"""Two people, two browsers: one creates a table, the other joins it, and they play it to the
end by clicking, with JavaScript on. With Redis (CI) each person is on a Daphne of their own.
"""

import re

import pytest

from accounts.models import Profile

from .actions import PLAYABLE, play_to_the_end, sign_up, wait_for_a_push

pytestmark = pytest.mark.browser


def create_table(page, base: str, target: int) -> str:
    """Create a public table with one open seat and a medium bot; return its path."""
    page.goto(f"{base}/games/new/")
    page.check("input[name=target][value='0']")
    page.fill("input[name=other_target]", str(target))
    page.select_option("select[name=seat_left]", "open")
    page.select_option("select[name=seat_right]", "heuristic")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    return re.search(r"/games/\d+/", page.url)[0]


def test_two_people_join_one_table_and_play_it_to_the_end(two_server_urls, new_page):
    ann, ben = new_page(), new_page()
    ann_base, ben_base = two_server_urls
    ben.emulate_media(reduced_motion="reduce")
    sign_up(ann, ann_base, "ann")
    sign_up(ben, ben_base, "ben")
    Profile.objects.filter(user__username="ann").update(turn_sound=True)  # her profile choice

    table = create_table(ann, ann_base, target=5)
    wait_for_a_push(ann)
    seat = ann.locator("#board [data-seat='0']")
    assert "ann" in seat.inner_text() and "you" in seat.inner_text()
    assert ann.locator("[data-action=leave]").inner_text() == "Cancel the table"

    # Ben finds the table in the lobby and opens it; the live board replaces the loaded one.
    ben.goto(f"{ben_base}/games/")
    ben.click(f".game-row a[href='{table}']")
    wait_for_a_push(ben)
    assert ben.locator("text=Log in to take a seat.").count() == 0
    ben.click("[data-action=join]")  # a form pushed over the socket: its CSRF token works
    ben.wait_for_selector(PLAYABLE + ", #hand")
    assert ben.url.endswith(table)

    # Ann's open page learns the game started: her hand and "Leave the game" appear.
    ann.wait_for_selector("#board[data-status='in_progress'] #hand")
    assert ann.locator("[data-action=resign]").count() == 1
    assert ann.locator("[data-action=leave]").count() == 0

    # They greet each other: typed text one way, a preset phrase the other.
    ben.wait_for_selector("body[data-boards]")
    ann.fill("#chat-form input[name=chat]", "Hi Ben, good luck!")
    ann.press("#chat-form input[name=chat]", "Enter")
    ben.wait_for_selector("#chat-log .chat-line:has-text('Hi Ben, good luck!')")
    assert ann.input_value("#chat-form input[name=chat]") == ""  # the box is cleared
    ben.click("[data-chat-preset=good_luck]")
    ann.wait_for_selector("#chat-log .chat-line:has-text('Good luck!')")

    # Whoever's turn it is sees it in the tab's title (checked before each click, too).
    title_matches_turn = (
        "() => (document.title === 'Your turn · Coins')"
        " === (document.querySelector('#board').dataset.yourTurn === 'true')"
    )
    for page in (ann, ben):
        page.wait_for_function(title_matches_turn)
    # Ben asked his browser for less motion: the seat whose turn it is does not glow.
    glow = "() => getComputedStyle(document.querySelector('.seat.is-turn')).animationName"
    assert ben.evaluate(glow) == "none" and ann.evaluate(glow) != "none"

    clicks = play_to_the_end({"ann": ann, "ben": ben})
    assert min(clicks) >= 2  # 5 points take two tricks at least
    for page, other in ((ann, "ben"), (ben, "ann")):
        result = page.locator("#game-result").inner_text()
        assert "wins" in result or "You won!" in result
        assert other in page.locator("#board").inner_text()
        assert page.locator("[data-action=resign]").count() == 0  # gone once the game is over
        assert page.locator("[data-action=quick-play]").count() == 1

    assert int(ann.evaluate("document.body.dataset.turnSounds || 0")) >= 1
    assert ben.evaluate("document.body.dataset.turnSounds") is None  # off by default

    # Rematch from pushed boards: Ann offers, Ben accepts, and both are taken to the new
    # table together (their forms came over the socket: their CSRF tokens work).
    ann.click("[data-action=rematch]")
    ben.click("[data-action=rematch-accept]")
    for page in (ann, ben):
        page.wait_for_url(lambda url: re.search(r"/games/\d+/$", url) and not url.endswith(table))
    assert ann.url.split("/games/")[1] == ben.url.split("/games/")[1]  # one table
    for page in (ann, ben):
        page.wait_for_selector("#board[data-status='in_progress'] #hand")
