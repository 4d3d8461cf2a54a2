"""A newcomer's bot, end to end, as issue 29 asks it to be tried: its author creates a token
in the browser, runs the example client (examples/bot_client.py) against the site, a visitor
watches the bot's game live, and then a person challenges the bot from its player page and
sits down at the table the bot's program accepted."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.models import Game, Seat

from .actions import sign_up

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


# examples/bot_client.py as its author runs it, but for its first card, which waits for a line
# on its input: the test's visitor opens the game first. Unheld, the program played a whole
# game before the visitor's page had loaded, now and then, and the visitor saw no card come.
HELD_AT_ITS_FIRST_CARD = """
import runpy, sys, httpx
post = httpx.Client.post
def held(client, url, *args, **kwargs):
    if "/play/" in str(url) and not held.let_go:
        sys.stdin.readline()
        held.let_go = True
    return post(client, url, *args, **kwargs)
held.let_go = False
httpx.Client.post = held
sys.argv[0] = "examples/bot_client.py"
runpy.run_path("examples/bot_client.py", run_name="__main__")
"""


def the_bots_game(username: str, seconds: float = 60) -> int:
    """The id of the game ``username`` sits at, once there is one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game_id = (
            Seat.objects.filter(user__username=username).values_list("game_id", flat=True).first()
        )
        if game_id:
            return game_id
        time.sleep(0.1)
    raise AssertionError(f"{username} never sat down")


def test_a_token_made_in_the_browser_runs_the_example_bot_watched_live_then_challenged(
    live_server_url, new_page
):
    base = live_server_url
    author = new_page()
    sign_up(author, base, "mybot")
    author.goto(f"{base}/account/tokens/")
    author.fill("input[name=name]", "My first bot")
    author.check("input[name=scopes][value='bot:play']")
    author.check("input[name=scopes][value='challenge:write']")
    author.click("button[data-action=create-token]")
    token = author.locator("[data-new-token]").inner_text().strip()
    assert token.startswith("coins_")
    assert author.locator("li.token").count() == 1  # listed, the secret itself shown once

    client = subprocess.Popen(
        [sys.executable, "-c", HELD_AT_ITS_FIRST_CARD, "--url", base, "--token", token],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        game_id = the_bots_game("mybot")
        watcher = new_page()  # a visitor, signed out
        watcher.goto(f"{base}/games/{game_id}/")
        watcher.wait_for_selector("body[data-ws='open']")
        assert "mybot" in watcher.locator("#board").inner_text()
        seen = int(watcher.locator("#board").get_attribute("data-moves"))
        client.stdin.write("play\n")  # the visitor watches: the bot's first card may go
        client.stdin.flush()
        try:
            watcher.wait_for_function(  # the bot's cards arrive on the visitor's page by themselves
                "seen => Number(document.querySelector('#board').dataset.moves) > seen",
                arg=seen,
                timeout=60_000,
            )
        except PlaywrightTimeout:
            client.kill()
            game = Game.objects.get(pk=game_id)
            raise AssertionError(
                f"the watcher saw no move after {seen}; the game: {game.status}, "
                f"{game.moves} moves, seat {game.to_play} to play; the bot's program said:\n"
                + client.communicate()[0]
            ) from None
        output, _ = client.communicate(timeout=240)
    finally:
        client.kill()
    assert client.returncode == 0, output
    assert f"game {game_id} finished" in output
    assert Game.objects.get(pk=game_id).status == Game.Status.FINISHED
    watcher.wait_for_selector("#game-result")  # the visitor saw it end

    ann = new_page()
    sign_up(ann, base, "ann")
    ann.goto(f"{base}/players/mybot/")
    ann.fill("[data-challenge-form] input[name=target]", "5")
    ann.select_option("[data-challenge-form] select[name=level]", "easy")
    ann.locator("[data-challenge-form] button[type=submit]").click()
    ann.wait_for_url(f"{base}/challenges/")
    challenge_id = ann.locator("[data-sent-challenge]").first.get_attribute("data-sent-challenge")

    # The bot's program accepts, as any program would, with the author's token.
    accepted = httpx.post(
        f"{base}/api/challenge/{challenge_id}/accept",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert accepted.status_code == 200, accepted.text
    table = accepted.json()["game"]["id"]
    ann.reload()
    ann.locator(f"a[href='/games/{table}/']").click()
    ann.wait_for_selector("#board[data-status='in_progress']")
    board = ann.locator("#board").inner_text()
    assert "mybot" in board and "ann" in board
