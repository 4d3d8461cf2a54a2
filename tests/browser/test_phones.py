"""Phones: on every turn of a whole game your hand, the trick and every score are on the
screen without scrolling, at 360x740 and 390x844, light and dark, in every language; the
trick just won is shown once, with why it was won."""

import pytest

from accounts.models import Profile
from games.models import Game
from games.table import seats as services

from .actions import PLAYABLE, board_moves, sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser

IN_VIEW = (
    "#hand",
    "#trick",
    "[data-score-seat='0']",
    "[data-score-seat='1']",
    "[data-score-seat='2']",
    ".status",
)


def out_of_view(page, height: int) -> dict:
    """The parts of the table not wholly on the screen as it is (no scrolling done)."""
    found = {}
    for spot in IN_VIEW:
        box = page.locator(spot).first.bounding_box()
        if not box or box["y"] < 0 or box["y"] + box["height"] > height:
            found[spot] = box
    if page.evaluate("() => window.scrollY"):
        found["scrolled"] = page.evaluate("() => window.scrollY")
    return found


def casual_game(page, base: str, username: str, django_user_model, language: str) -> Game:
    sign_up(page, base, username)
    Profile.objects.filter(user__username=username).update(language=language)
    user = django_user_model.objects.get(username=username)
    game = services.game_create(
        creator=user, target=5, seat_kinds=["me", "random", "random"], is_rated=False
    )
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("body[data-ws='open']")
    return game


@pytest.mark.parametrize(
    ("width", "height", "scheme", "language"),
    [(360, 740, "dark", "id"), (390, 844, "light", "es"), (360, 740, "light", "fr")],
)
def test_a_whole_game_on_a_phone_keeps_the_hand_trick_and_scores_on_screen(
    live_server_url, new_page, django_user_model, width, height, scheme, language
):
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    username = f"ph{width}{language}"
    game = casual_game(page, live_server_url, username, django_user_model, language)
    turns = 0
    while True:
        page.wait_for_selector(f"#game-result, {PLAYABLE}")
        if page.locator("#game-result").count():
            break
        turns += 1
        assert out_of_view(page, height) == {}, (turns, language)
        if page.locator("#trick.complete").count():  # the trick just won, in the middle
            assert page.locator("#last-trick").count() == 0  # once, not twice
            assert page.locator("#trick .why").is_visible()
        elif page.locator("#last-trick").count():
            assert page.locator("#last-trick .why").is_visible()
        if turns == 3:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"phone-{width}-{scheme}-{language}.png"))
        before = board_moves(page)
        page.locator(PLAYABLE).last.click()
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert turns >= 3
    assert page.locator("[data-your-place]").is_visible()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844)])
def test_in_every_language_the_table_fits_a_phone_on_your_turn(
    live_server_url, new_page, django_user_model, width, height
):
    """The longest words of each language, on the same table (a few cards into the game)."""
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    username = f"langs{width}"
    game = casual_game(page, live_server_url, username, django_user_model, "en")
    for _ in range(4):
        page.wait_for_selector(PLAYABLE)
        before = board_moves(page)
        page.locator(PLAYABLE).last.click()
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
    for language in ("en", "es", "ca", "fr", "id"):
        Profile.objects.filter(user__username=username).update(language=language)
        page.goto(f"{live_server_url}/games/{game.pk}/")
        page.wait_for_selector(PLAYABLE)
        assert page.locator("html").get_attribute("lang") == language
        assert out_of_view(page, height) == {}, language
