"""Two people press "Find a game" with the same options within seconds, in two browsers
(on two Daphnes with Redis), sit at one table and play it to the end by clicking."""

import re

import pytest

from .actions import play_to_the_end, sign_up

pytestmark = pytest.mark.browser


def find_a_game(page, base: str, target: str) -> None:
    page.goto(f"{base}/games/")
    page.select_option("form.find-game select[name=target]", target)
    page.select_option("form.find-game select[name=clock]", "60")
    page.select_option("form.find-game select[name=wait]", "30")
    page.click("[data-action=find-game]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))


def test_two_people_finding_a_game_sit_together_and_play_it_out(two_server_urls, new_page):
    ida, jon = new_page(), new_page()
    ida_base, jon_base = two_server_urls
    sign_up(ida, ida_base, "ida")
    sign_up(jon, jon_base, "jon")

    find_a_game(ida, ida_base, "10")
    ida.wait_for_selector("[data-queue-wait]")
    assert ida.locator("[data-action=leave]").inner_text() == "Stop searching"
    find_a_game(jon, jon_base, "10")
    table = re.search(r"/games/\d+/", ida.url)[0]
    assert jon.url.endswith(table)  # seated together at once
    ida.wait_for_selector("#board [data-seat='1']:has-text('jon')")  # ida sees jon arrive

    # Nobody else comes: after the 30 s wait a bot takes the third seat and the game starts.
    for page in (ida, jon):
        page.wait_for_selector("#board[data-status='in_progress'] #hand", timeout=60_000)
    clicks = play_to_the_end([ida, jon])
    assert min(clicks) >= 2
    for page in (ida, jon):
        assert page.locator("#game-result").count() == 1
