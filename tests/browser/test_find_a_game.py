"""Three people press "Find a game" with the same options within seconds, in three browsers
(on two Daphnes with Redis), sit at one table and play two tricks by clicking, each seeing
the others' cards. (A game of people played to its result: test_people_play_people.py. Bots
taking the free seats after the chosen wait: tests/games/test_matchmaking.py, on a clock
the test moves.)"""

import re

import pytest

from .actions import board_moves, play_to_the_end, sign_up

pytestmark = pytest.mark.browser


def find_a_game(page, base: str, target: str) -> None:
    page.goto(f"{base}/games/")
    page.select_option("form.find-game select[name=target]", target)
    page.select_option("form.find-game select[name=clock]", "60")
    page.select_option("form.find-game select[name=wait]", "30")
    page.click("[data-action=find-game]")
    page.wait_for_url(re.compile(r"/games/\d+/$"))


def test_three_people_finding_a_game_sit_together_and_play(two_server_urls, new_page):
    ida, jon, kim = new_page(), new_page(), new_page()
    one, other = two_server_urls
    sign_up(ida, one, "ida")
    sign_up(jon, other, "jon")
    sign_up(kim, one, "kim")

    find_a_game(ida, one, "10")
    ida.wait_for_selector("[data-queue-wait]")
    assert ida.locator("[data-action=leave]").inner_text() == "Stop searching"
    find_a_game(jon, other, "10")
    table = re.search(r"/games/\d+/", ida.url)[0]
    assert jon.url.endswith(table)  # seated together at once
    ida.wait_for_selector("#board [data-seat='1']:has-text('jon')")  # ida sees jon arrive

    find_a_game(kim, one, "10")  # the third person fills the table: the game starts
    assert kim.url.endswith(table)
    for page in (ida, jon, kim):
        page.wait_for_selector("#board[data-status='in_progress'] #hand")
    assert "(bot)" not in ida.locator("#board").inner_text()
    clicks = play_to_the_end({"ida": ida, "jon": jon, "kim": kim}, moves=6)
    assert clicks == [2, 2, 2]  # two tricks: each person played twice, in turn
    won = set()  # the trick just won stays on the table until its winner leads again
    for page in (ida, jon, kim):
        assert board_moves(page) == 6
        assert page.locator("#trick.complete").get_attribute("data-trick") == "2"
        cards = page.locator("#trick [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        held = page.locator("#hand [data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
        assert not set(cards) & set(held)
        won.add(tuple(cards))
    assert len(won) == 1 and len(next(iter(won))) == 3  # all saw the same trick
