"""What a person does: sign up, start a game against two bots, play it to the end by clicking."""

import re

import pytest

from games.models import Play

from .actions import PLAYABLE, board_moves, drop_connection, sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser


def test_sign_up_quick_play_and_play_a_whole_game_by_clicking(live_server_url, page):
    base = live_server_url
    sign_up(page, base, "zoe")
    page.goto(f"{base}/")
    page.click('[data-action="quick-play"]')
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_selector("body[data-ws='open']")
    assert page.locator("[data-score-seat='0']").inner_text() == "0"

    clicks = 0
    for _turn in range(200):  # a person plays at most about 100 cards of a game to 10
        page.wait_for_selector(f"#game-result, {PLAYABLE}")
        if page.locator("#game-result").count():
            break
        before = board_moves(page)
        hand = page.locator("#board").get_attribute("data-hand")
        card = page.locator(PLAYABLE).last.get_attribute("data-card")  # see play_a_card
        held = page.locator("#hand [data-card]").count()
        page.click(f"{PLAYABLE}[data-card='{card}']")  # this card, even if the board was redrawn
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
        clicks += 1
        # The click played that very card for this person, and the page shows it: on the
        # table or as the last trick, and gone from the hand (unless a new deal began:
        # then the table is cleared and the new hand may hold it again).
        game_id = int(re.search(r"/games/(\d+)/", page.url)[1])
        play = Play.objects.filter(game_id=game_id, hand__number=int(hand), card=card).first()
        plays = list(
            Play.objects.filter(game_id=game_id, sequence__gte=before - 3)
            .order_by("sequence")
            .values_list("sequence", "seat", "card")
        )
        assert play and play.seat == 0 and play.sequence >= before, (before, card, plays)
        # One look at the page (bots answer within 0.1 s: two looks may see two boards).
        now = page.evaluate(
            """() => ({
              hand: document.querySelector('#board').dataset.hand,
              held: [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card),
              shown: [...document.querySelectorAll('#trick [data-card], #last-trick [data-card]')]
                .map(e => e.dataset.card),
            })"""
        )
        new_deal = now["hand"] != hand
        assert new_deal or card in now["shown"], card
        assert new_deal or (len(now["held"]) == held - 1 and card not in now["held"])
        if clicks == 8:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "table-midgame.png"), full_page=True)

    result = page.locator("#game-result")
    scores = [int(page.locator(f"[data-score-seat='{n}']").inner_text()) for n in range(3)]
    assert max(scores) >= 10
    winner = max(range(3), key=lambda n: scores[n])
    names = ["zoe", "Bruno (bot)", "Carmen (bot)"]
    assert names[winner] in result.inner_text()
    assert clicks >= 5
    page.screenshot(path=str(ARTIFACTS / "table-finished.png"), full_page=True)


def test_a_dropped_socket_reconnects_by_itself(live_server_url, page):
    sign_up(page, live_server_url, "yves")
    page.goto(f"{live_server_url}/")
    page.click('[data-action="quick-play"]')
    page.wait_for_selector("body[data-ws='open']")
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    # Simulate the network dropping the socket abnormally (code 1006 is what a lost link gives).
    drop_connection(page)
    page.wait_for_selector("body[data-ws='closed']")
    page.wait_for_selector("body[data-ws='open']", timeout=20_000)
    page.wait_for_selector(f"#game-result, {PLAYABLE}")
    page.wait_for_timeout(1500)  # longer than any reconnect delay after a first drop
    assert len(opened) == 1, opened  # one page, one socket again


def test_a_page_that_missed_an_update_catches_up_by_itself(
    live_server_url, page, settings, monkeypatch
):
    """An update lost on the way (the channel layer can drop one) costs a few seconds of
    silence, not a stuck table: the page asks again and shows the move, without reloading."""
    from django.contrib.auth import get_user_model

    from games.table import flow, lifecycle

    sent = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
    page.clock.install()  # the page's clock runs as usual, until the test moves it on
    sign_up(page, live_server_url, "xena")
    page.goto(f"{live_server_url}/")
    page.click('[data-action="quick-play"]')
    page.wait_for_selector(PLAYABLE)
    page.wait_for_load_state("load")  # the table page's own load, which may come after its cards
    reloads = []
    page.on("load", lambda: reloads.append(page.url))
    game_id = int(re.search(r"/games/(\d+)/", page.url)[1])
    moves = board_moves(page)
    card = page.locator(PLAYABLE).first.get_attribute("data-card")

    # Played behind the page's back, and its update lost; the bots' answers wait an hour.
    user = get_user_model().objects.get(username="xena")
    settings.COINS_BOT_PAUSE = 3600
    monkeypatch.setattr(lifecycle, "notify_table", lambda *args, **kwargs: None)
    flow.play_card(game_id=game_id, user=user, card=card)

    page.clock.fast_forward(9_000)  # a silence long enough for the page to ask (8 s)
    page.wait_for_function(
        f"() => Number(document.querySelector('#board').dataset.moves) > {moves}"
    )
    assert '{"sync": true}' in sent and reloads == []
    assert page.locator(f'#hand button[data-card="{card}"]').count() == 0
