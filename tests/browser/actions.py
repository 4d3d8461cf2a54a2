"""What a person does in the browser, shared by the browser tests."""

from __future__ import annotations

import time

PLAYABLE = "#hand.can-play button[data-card]:not([disabled])"
PASSWORD = "a-Strong-pass-42"


def sign_up(page, base: str, username: str, next_url: str = "") -> None:
    page.goto(f"{base}/accounts/signup/{f'?next={next_url}' if next_url else ''}")
    fill_sign_up(page, username)
    assert username in page.locator("header").inner_text()


def fill_sign_up(page, username: str) -> None:
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    page.wait_for_load_state()


def board_moves(page) -> int:
    return int(page.locator("#board").get_attribute("data-moves"))


def wait_for_a_push(page) -> None:
    """Wait until the socket has replaced the board the page was loaded with."""
    page.wait_for_selector("body[data-boards]")


def play_a_card(page) -> str:
    """Click the first playable card and wait until the board shows it played."""
    before = board_moves(page)
    assert page.title() == "Your turn · Coins"
    card = page.locator(PLAYABLE).first.get_attribute("data-card")
    page.click(f"{PLAYABLE}[data-card='{card}']")  # this card, even if the board was redrawn
    page.wait_for_function(
        "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
    )
    return card


def play_to_the_end(pages: list, seconds: float = 240) -> list[int]:
    """Each person clicks a card whenever it is their turn, until every page shows the
    result. Return how many cards each of them played."""
    deadline, clicks = time.monotonic() + seconds, [0] * len(pages)
    while not all(page.locator("#game-result").count() for page in pages):
        assert time.monotonic() < deadline, "the game did not finish"
        moved = False
        for number, page in enumerate(pages):
            if not page.locator("#game-result").count() and page.locator(PLAYABLE).count():
                play_a_card(page)
                clicks[number] += 1
                moved = True
        if not moved:
            pages[0].wait_for_timeout(30)
    return clicks
