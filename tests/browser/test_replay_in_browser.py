"""Stepping through a finished game's replay with the keyboard, in a real browser."""

import os

import pytest

from games.history.records import game_record
from games.models import Game
from games.table import seats as services
from tests.games.helpers import play_out

pytestmark = pytest.mark.browser

SCREENSHOT = os.environ.get("REPLAY_SCREENSHOT", "")  # a path, to look at the page by hand


def finished_game(user) -> Game:
    game = services.game_create(
        creator=user, target=12, seat_kinds=["me", "random", "random"], is_public=True
    )
    return play_out(game, user)


def shown(page) -> tuple[int, int, list[str], int]:
    board = page.locator("#replay-board")
    trick = page.locator("#replay-trick")
    cards = trick.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    return (
        int(board.get_attribute("data-hand")),
        int(board.get_attribute("data-trick")),
        cards,
        int(trick.get_attribute("data-winner-seat")),
    )


def press(page, key: str, hand: int, trick: int) -> None:
    page.keyboard.press(key)
    page.wait_for_function(
        "([h, t]) => { const b = document.querySelector('#replay-board');"
        " return b && b.dataset.hand == h && b.dataset.trick == t"
        " && !b.classList.contains('htmx-settling') && !document.querySelector('.htmx-request'); }",
        arg=[hand, trick],
    )


def test_stepping_through_a_finished_game_with_the_keyboard(
    live_server_url, page, django_user_model
):
    user = django_user_model.objects.create_user(username="rita", password="pw-Coins-123")
    game = finished_game(user)
    record = game_record(game)
    tricks = [(h["number"], t) for h in record["hands"] for t in h["tricks"]]
    assert len(record["hands"]) >= 2

    page.goto(f"{live_server_url}/games/{game.pk}/replay/")
    page.wait_for_selector("#replay-trick [data-card]")
    page.evaluate("() => { window.replayMarker = 1; }")  # gone if a step reloads the page
    for index, (hand, trick) in enumerate(tricks):
        if index:
            press(page, "ArrowRight", hand, trick["number"])
        assert shown(page) == (hand, trick["number"], trick["cards"], trick["winner"])
        if index:
            assert page.url.endswith(f"?hand={hand}&trick={trick['number']}")
        assert page.evaluate("() => window.replayMarker") == 1, index  # htmx swapped the board
    if SCREENSHOT:
        page.screenshot(path=SCREENSHOT, full_page=True)

    first, second = record["hands"][0], record["hands"][1]
    press(page, "Home", 1, 1)
    assert shown(page)[2] == first["tricks"][0]["cards"]
    press(page, "PageDown", 2, 1)
    assert shown(page)[2] == second["tricks"][0]["cards"]
    press(page, "ArrowRight", 2, 2)
    press(page, "PageUp", 2, 1)
    press(page, "PageUp", 1, 1)
    press(page, "PageDown", 2, 1)
    # The up and down arrows are the page's own: they scroll it and move nothing.
    page.keyboard.press("ArrowDown")
    assert page.url.endswith("?hand=2&trick=1")
    last_hand, last_trick = tricks[-1][0], tricks[-1][1]["number"]
    press(page, "End", last_hand, last_trick)
    assert shown(page)[2] == tricks[-1][1]["cards"]
    press(page, "ArrowLeft", *(tricks[-2][0], tricks[-2][1]["number"]))
    assert shown(page)[2] == tricks[-2][1]["cards"]
    # the browser's back button returns to the position before
    page.go_back()
    page.wait_for_function(
        "t => document.querySelector('#replay-board').dataset.trick == t", arg=last_trick
    )
    assert shown(page)[2] == tricks[-1][1]["cards"]
    assert page.locator("a[data-action='download-record']").get_attribute("href") == (
        f"/games/{game.pk}/record.json"
    )


def test_the_replay_works_without_javascript(live_server_url, browser, django_user_model):
    user = django_user_model.objects.create_user(username="sam", password="pw-Coins-123")
    game = finished_game(user)
    record = game_record(game)
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server_url}/games/{game.pk}/replay/")
        page.click("a[data-replay='next']")
        page.wait_for_url("**/replay/?hand=1&trick=2")
        assert shown(page)[2] == record["hands"][0]["tricks"][1]["cards"]
        page.click("a[data-replay='next-hand']")
        page.wait_for_url("**/replay/?hand=2&trick=1")
        assert shown(page)[2] == record["hands"][1]["tricks"][0]["cards"]
    finally:
        context.close()
