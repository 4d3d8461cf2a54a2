"""Two people, two browsers: one creates a table, the other joins it, and they play it to the
end by clicking, with JavaScript on. With Redis (CI) each person is on a Daphne of their own.
"""

import re
import threading

import pytest
from django.db import connection

from accounts.models import Profile
from games.engine import CARD_CODES
from games.models import Game, Play
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

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


def test_a_card_chosen_while_others_play_is_played_when_the_turn_comes(
    two_server_urls, new_page, django_user_model
):
    """Playing ahead: Ann picks her next card while Ben and Carol play (here, by the test,
    through the other server's channel layer); it is played the moment her turn comes, with
    no click then, and the server checks it as any card."""
    ann = new_page()
    base = two_server_urls[0]
    sign_up(ann, base, "ann")
    users = [django_user_model.objects.get(username="ann")] + [
        django_user_model.objects.create_user(name) for name in ("ben", "carol")
    ]
    game = services.game_create(
        creator=users[0], target=10, seat_kinds=["me", "open", "open"], is_rated=False
    )
    for seat in (1, 2):
        services.seat_join(game_id=game.pk, user=users[seat], seat_number=seat)
    ann.goto(f"{base}/games/{game.pk}/")
    ann.wait_for_selector("body[data-ws='open']")

    def others_play_until_anns_turn() -> None:
        try:
            while (row := Game.objects.get(pk=game.pk)).to_play != 0:
                card = game_load(row).state.hands[row.to_play][0]
                flow.play_card(game_id=game.pk, user=users[row.to_play], card=CARD_CODES[card])
        finally:
            connection.close()  # this thread's own connection

    if Game.objects.get(pk=game.pk).to_play == 0:  # Ann leads: she plays, then it is theirs
        ann.wait_for_selector(PLAYABLE)
        ann.locator(PLAYABLE).last.click()
    ann.wait_for_selector("#hand button.card[data-premove]")
    chosen = ann.locator("#hand button.card[data-premove]").nth(2)
    code = chosen.get_attribute("data-card")
    chosen.click()
    assert chosen.get_attribute("aria-pressed") == "true"
    ann.locator("#hand button.card[data-premove]").nth(3).click()  # changed her mind...
    ann.locator("#hand button.card[data-premove]").nth(2).click()  # ...and back
    assert ann.locator("#hand button.card.chosen").count() == 1
    # From a thread of their own: this thread runs Playwright's event loop, in which Django
    # cannot push to the channel layer (the page would only catch up seconds later).
    others = threading.Thread(target=others_play_until_anns_turn)
    others.start()
    others.join()
    ann.wait_for_function(
        "code => !document.querySelector(`#hand [data-card='${code}']`)", arg=code
    )
    assert Play.objects.filter(game=game, seat=0).order_by("-sequence").first().card == code
