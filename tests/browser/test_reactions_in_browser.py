"""Reactions between two people, two browsers (each on a Daphne of their own with Redis): one
reacts, the other sees a bubble by the right seat and hears who did; a switch hides them all.
Ben plays on a phone (360x740, dark, reduced motion): his hand stays on screen on his turn
with the reaction buttons there, and axe finds nothing wrong while a bubble shows."""

import time
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Game
from games.table import seats as services

from .actions import PLAYABLE, play_a_card, sign_up
from .conftest import ARTIFACTS
from .test_every_player import AXE
from .test_phones import out_of_view

pytestmark = pytest.mark.browser

# Where a bubble is against its seat: over the seat's top edge, within its width.
PLACE = """seat => {
  const bubble = document.querySelector(`.reaction-bubble[data-seat="${seat}"]`)
    .getBoundingClientRect();
  const box = document.querySelector(`#board .seat[data-seat="${seat}"]`).getBoundingClientRect();
  return {
    within: bubble.left >= box.left - 1 && bubble.right <= box.right + 1,
    on_top_edge: bubble.top < box.top && bubble.bottom > box.top,
    said: document.getElementById('reaction-said').textContent.trim(),
    motion: getComputedStyle(document.querySelector('.reaction-bubble')).animationName,
  };
}"""
BUTTONS = """() => Array.from(document.querySelectorAll('button.reaction')).map(button => {
  const box = button.getBoundingClientRect();
  return [box.width, box.height];
})"""


def axe_while_paused(page) -> list[dict]:
    """axe-core's violations on a page whose clock the test holds still: axe waits on
    timers, so the page's clock is moved on (0.1 s at a time) until it answers."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE)
    page.evaluate(
        "() => { window.axeFound = null; axe.run(document, {resultTypes: ['violations']})"
        ".then(r => { window.axeFound = r.violations.map(v => ({id: v.id,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 4)})); }); }"
    )
    for _ in range(20):  # 2 s of the page's time at most: the bubble lasts 2.6 s
        page.clock.run_for(100)
        found = page.evaluate("() => window.axeFound")
        if found is not None:
            return found
    raise AssertionError("axe did not answer")


def until_turn_of(game_id: int, seat: int, ann) -> None:
    """Play Ann's cards (seat 0) and wait for the bot's until it is ``seat``'s turn."""
    deadline = time.monotonic() + 60
    while (game := Game.objects.get(pk=game_id)).to_play != seat:
        assert time.monotonic() < deadline, "the turn never came"
        if game.to_play == 0:
            ann.wait_for_selector(PLAYABLE)
            play_a_card(ann)
        else:
            time.sleep(0.02)  # the bot's card, then look again


def test_a_reaction_shows_by_its_senders_seat_on_the_other_page_and_can_be_hidden(
    two_server_urls, new_page, django_user_model
):
    ann, ben = new_page(), new_page()
    ann_base, ben_base = two_server_urls
    ben.set_viewport_size({"width": 360, "height": 740})
    ben.emulate_media(color_scheme="dark", reduced_motion="reduce")
    sign_up(ann, ann_base, "ann")
    sign_up(ben, ben_base, "ben")
    alice, bob = (django_user_model.objects.get(username=name) for name in ("ann", "ben"))
    game = services.game_create(
        creator=alice, target=13, seat_kinds=["me", "open", "random"], is_rated=False
    )
    services.seat_join(game_id=game.pk, user=bob)
    for page, base in ((ann, ann_base), (ben, ben_base)):
        page.clock.install()  # the page's clock runs as usual, until the test stops it
        page.goto(f"{base}/games/{game.pk}/")
        page.wait_for_selector("body[data-ws='open']")

    # Ben's turn on his phone: the hand, the trick and the scores on screen, the reaction
    # buttons there too (below the hand, at least 44 px each).
    until_turn_of(game.pk, 1, ann)
    ben.wait_for_selector(PLAYABLE)
    assert out_of_view(ben, 740) == {}
    assert ben.locator(".reaction-bar").is_visible()
    sizes = ben.evaluate(BUTTONS)
    assert len(sizes) == 6 and all(width >= 44 and height >= 44 for width, height in sizes)

    # Ann reacts by keyboard. Ben's page clock stands still while the test looks at the
    # bubble (it would be gone after 2.6 s on a loaded machine).
    now = datetime.fromtimestamp(ben.evaluate("Date.now()") / 1000, tz=UTC)
    ben.clock.pause_at(now + timedelta(milliseconds=50))
    ann.focus("[data-react=clap]")
    ann.keyboard.press("Enter")
    ann.wait_for_selector(".reaction-bubble[data-seat='0']")  # her own page, at once
    assert ann.evaluate(PLACE, 0)["motion"] == "reaction-pop"
    ben.wait_for_selector(".reaction-bubble[data-seat='0']")
    spot = ben.evaluate(PLACE, 0)
    assert spot == {"within": True, "on_top_edge": True, "said": "ann: Applause", "motion": "none"}
    assert ben.locator(".reaction-bubble").inner_text() == "👏"
    assert out_of_view(ben, 740) == {}  # the bubble moved nothing
    assert axe_while_paused(ben) == []
    assert ben.locator(".reaction-bubble").count() == 1  # looked at with the bubble
    ARTIFACTS.mkdir(exist_ok=True)
    ben.screenshot(path=str(ARTIFACTS / "table-360-dark-reaction.png"))
    ben.clock.run_for(3_000)  # no motion: shown, then removed
    assert ben.locator(".reaction-bubble").count() == 0
    ben.clock.resume()

    # Ann hides reactions: Ben's next one reaches her page and is not shown nor said.
    switch = ann.locator("[data-action=reactions]")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert not ann.locator(".reaction-choices").is_visible()
    ben.click("[data-react=thumbs_up]")
    ben.wait_for_selector(".reaction-bubble[data-seat='1']")  # his own
    ann.wait_for_selector("#reaction-news[data-reaction='thumbs_up']", state="attached")
    assert ann.locator(".reaction-bubble").count() == 0
    assert ann.locator("#reaction-said").text_content().strip() == "ann: Applause"
    assert ann.evaluate("document.body.dataset.reactionsShown") == "1"  # her own, before

    # The choice is kept in her browser, and turned back on as easily.
    ann.reload()
    ann.wait_for_selector("body[data-ws='open']")
    assert switch.get_attribute("aria-pressed") == "false"
    assert not ann.locator(".reaction-choices").is_visible()
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    assert ann.locator(".reaction-choices").is_visible()


def test_spectators_see_reactions_but_have_no_buttons(live_server_url, new_page):
    """A spectator's page has the switch, not the buttons."""
    from django.contrib.auth import get_user_model

    owner = get_user_model().objects.create_user("owner")
    game = services.game_create(
        creator=owner, target=10, seat_kinds=["me", "random", "random"], is_rated=False
    )
    page = new_page()
    page.goto(f"{live_server_url}/games/{game.pk}/")
    page.wait_for_selector("body[data-ws='open']")
    assert page.locator("[data-action=reactions]").is_visible()
    assert page.locator(".reaction-bar").count() == 0
