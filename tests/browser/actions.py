"""What a person does in the browser, shared by the browser tests."""

from __future__ import annotations

import re
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


DROP_CONNECTION = (
    "() => { const socket = htmx.find('[ws-connect]')['htmx-internal-data'].webSocket.socket;"
    " socket.dispatchEvent(new CloseEvent('close', {code: 1006}));"
    " socket.onclose = null; socket.close(); }"
)


def drop_connection(page) -> None:
    """The page's socket lost as a dropped link loses it: one close event, code 1006 (an
    abnormal closure), then the socket gone. (Closing it for real after the made-up event
    gave the page a second close, code 1005, and so a second reconnect racing the first: two
    sockets for one page.)"""
    page.evaluate(DROP_CONNECTION)


def board_moves(page) -> int:
    return int(page.locator("#board").get_attribute("data-moves"))


def wait_for_a_push(page) -> None:
    """Wait until the socket has replaced the board the page was loaded with."""
    page.wait_for_selector("body[data-boards]")


def play_a_card(page) -> str:
    """Click the last playable card and wait until the board shows it played. (Not the first:
    on your turn the page puts the keyboard focus on the first card, which lifts it in a 0.1 s
    transition, and Playwright waits for a moving card to stand still before it clicks.)"""
    before = board_moves(page)
    assert page.title() == "Your turn · Coins"
    card = page.locator(PLAYABLE).last.get_attribute("data-card")
    page.click(f"{PLAYABLE}[data-card='{card}']")  # this card, even if the board was redrawn
    page.wait_for_function(
        "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
    )
    return card


def play_to_the_end(people: dict, seconds: float = 240, moves: int | None = None) -> list[int]:
    """Each person (username: page) clicks a card whenever it is their turn, until every page
    shows the result (or until the game has ``moves`` cards played, if given). Whose turn it
    is comes from the game's row, so the test waits on that person's page alone (no polling
    of every page). Return how many cards each played."""
    from games.models import Game, Seat

    pages = list(people.values())
    game_id = int(re.search(r"/games/(\d+)/", pages[0].url)[1])
    seats = dict(
        Seat.objects.filter(game_id=game_id, user__isnull=False).values_list(
            "number", "user__username"
        )
    )
    deadline, clicks = time.monotonic() + seconds, dict.fromkeys(people, 0)
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        game = Game.objects.get(pk=game_id)
        if not game.is_running or (moves is not None and game.moves >= moves):
            break
        person = seats.get(game.to_play)
        if person in people:
            people[person].wait_for_selector(PLAYABLE)
            play_a_card(people[person])
            clicks[person] += 1
        else:  # a bot's turn: wait for its card
            while Game.objects.filter(pk=game_id, moves=game.moves, status=game.status).exists():
                assert time.monotonic() < deadline, "the game did not finish"
                time.sleep(0.02)
    for page in pages:
        if moves is None:
            page.wait_for_selector("#game-result")
        else:
            page.wait_for_function(
                "moves => Number(document.querySelector('#board').dataset.moves) >= moves",
                arg=moves,
            )
    return list(clicks.values())


def analysed(game, seconds: float = 120):
    """Wait for a server's analysis lane to finish ``game`` (it looks every 2 s)."""
    from analysis.models import GameAnalysis

    deadline = time.monotonic() + seconds
    while True:
        analysis = GameAnalysis.objects.filter(game=game, status="done").first()
        if analysis is not None:
            return analysis
        assert time.monotonic() < deadline, "the game was not analysed"
        time.sleep(0.2)
