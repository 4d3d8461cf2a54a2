"""Phones: on every turn of a whole game your hand, the trick and every score are on the
screen without scrolling, at 360x740 and 390x844, light and dark, in every language; the
trick just won is shown once, with why it was won; "What would win?" marks the cards."""

import pytest

from accounts.models import Profile
from games.models import Game
from games.table import seats as services

from .actions import PLAYABLE, board_moves, sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser
BOT_PAUSE = 0  # about the page at each turn: the bots answer with the person's card

IN_VIEW = (
    "#hand",
    "#trick",
    "[data-score-seat='0']",
    "[data-score-seat='1']",
    "[data-score-seat='2']",
    ".status",
)


def out_of_view(page, height: int) -> dict:
    """The parts of the table not wholly on the screen as it is (no scrolling done), in one
    look at the page."""
    return page.evaluate(
        """([spots, height]) => {
          const found = {};
          for (const spot of spots) {
            const element = document.querySelector(spot);
            const box = element && element.getBoundingClientRect();
            if (!box || box.top < 0 || box.bottom > height) {
              found[spot] = box && [box.top, box.bottom];
            }
          }
          if (window.scrollY) { found.scrolled = window.scrollY; }
          return found;
        }""",
        [list(IN_VIEW), height],
    )


def cards_over_the_words(page) -> bool:
    """Whether a card of the trick just won (with its player's name) ends up over the words
    saying who took it and why, once the cards have gathered by the winner (their motion
    run to its end at once: the same picture a moment early)."""
    return page.evaluate(
        """() => {
          const trick = document.querySelector('#trick.complete');
          if (!trick) { return false; }
          trick.getAnimations({subtree: true}).forEach(motion => motion.finish());
          const words = trick.querySelector('.trick-result').getBoundingClientRect();
          return [...trick.querySelectorAll('.played')].some(card => {
            const box = card.getBoundingClientRect();
            return box.bottom > words.top + 1 && box.top < words.bottom - 1
              && box.right > words.left && box.left < words.right;
          });
        }"""
    )


def casual_game(
    page, base: str, username: str, django_user_model, language: str, target: int = 5
) -> Game:
    sign_up(page, base, username)
    Profile.objects.filter(user__username=username).update(language=language)
    user = django_user_model.objects.get(username=username)
    game = services.game_create(
        creator=user, target=target, seat_kinds=["me", "random", "random"], is_rated=False
    )
    page.goto(f"{base}/games/{game.pk}/")
    page.wait_for_selector("body[data-ws='open']")
    return game


@pytest.mark.parametrize(
    ("width", "height", "scheme", "language", "target"),
    [
        (360, 740, "dark", "id", 13),  # 13 points: a second hand, with the first one's summary
        (390, 844, "light", "es", 5),
    ],
)
def test_a_whole_game_on_a_phone_keeps_the_hand_trick_and_scores_on_screen(
    live_server_url, new_page, django_user_model, width, height, scheme, language, target
):
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    username = f"ph{width}{language}"
    game = casual_game(page, live_server_url, username, django_user_model, language, target)
    turns, summaries, landed = 0, 0, 0
    while True:
        page.wait_for_selector(f"#game-result, {PLAYABLE}")
        if page.locator("#game-result").count():
            break
        turns += 1
        assert out_of_view(page, height) == {}, (turns, language)
        if page.locator("[data-hand-summary]").count():  # a new hand: dealt in, once
            summaries += 1
            assert page.locator("#hand.dealt").count() == 1
        # The card just played lands from its player's side (the CSS rule, not its timing).
        landing = page.evaluate(
            "() => { const card = document.querySelector('#trick:not(.complete) .played.newest');"
            " return card && getComputedStyle(card).animationName; }"
        )
        assert landing in (None, "land-from-below", "land-from-left", "land-from-right")
        landed += landing is not None
        if page.locator("#trick.complete").count():  # the trick just won, in the middle
            assert page.locator("#last-trick").count() == 0  # once, not twice
            assert page.locator("#trick .why").is_visible()
            assert not cards_over_the_words(page), turns
        elif page.locator("#last-trick").count():
            assert page.locator("#last-trick .why").is_visible()
        if turns == 3:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"phone-{width}-{scheme}-{language}.png"))
        before = board_moves(page)
        page.locator(PLAYABLE).last.click()
        # A thumb taps what it sees; Playwright scrolls a card into view first if the page
        # moved between the look above and the tap (a load-dependent moment). That scroll is
        # the test's, not the page's: undone, so the next turn's look sees only the page's.
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert turns >= 3 and (summaries >= 1 or target < 13)  # 12 points a hand
    assert landed or turns < 3
    assert page.locator("[data-your-place]").is_visible()


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844)])
def test_in_every_language_the_table_fits_a_phone_on_your_turn(
    live_server_url, new_page, django_user_model, width, height
):
    """The longest words of each language, on the same table (a few cards into the game)."""
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    username = f"langs{width}"
    # 13 points: no game ends within its first hand, so it is still going after 4 cards.
    game = casual_game(page, live_server_url, username, django_user_model, "en", target=13)
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


def test_what_would_win_marks_each_card_and_stays_on_until_turned_off(
    live_server_url, new_page, django_user_model
):
    page = new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    game = casual_game(page, live_server_url, "helpme", django_user_model, "en", target=13)
    page.wait_for_selector(PLAYABLE)
    toggle = page.locator("[data-action=rules-help]")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert all(not mark.is_visible() for mark in page.locator("#hand .verdict").all())
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    marked = 0
    for _ in range(12):  # turns: a lead has no marks; a second or third card has one each
        page.wait_for_selector(PLAYABLE)
        cards = page.locator("#hand button.card").count()
        verdicts = page.locator("#hand [data-verdict] .verdict")
        if verdicts.count():
            assert verdicts.count() == cards and all(
                verdicts.nth(i).is_visible() for i in range(cards)
            )
            assert out_of_view(page, 740) == {}  # the marks take no room of their own
            marked += 1
        assert page.locator("[data-action=rules-help]").get_attribute("aria-pressed") == "true"
        before = board_moves(page)
        page.locator(PLAYABLE).last.click()
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )
    assert marked >= 1  # (leading all 12 turns would take winning every trick)
    page.goto(f"{live_server_url}/games/{game.pk}/")  # kept in this browser
    page.wait_for_selector(PLAYABLE)
    assert page.locator("body.rules-help").count() == 1
    page.locator("[data-action=rules-help]").click()
    assert page.locator("body.rules-help").count() == 0
    assert all(not mark.is_visible() for mark in page.locator("#hand .verdict").all())


def test_card_sounds_are_off_until_chosen_and_follow_the_volume(
    live_server_url, new_page, django_user_model
):
    page = new_page()
    page.set_viewport_size({"width": 360, "height": 740})
    casual_game(page, live_server_url, "ears", django_user_model, "en", target=13)

    def heard() -> int:
        return int(page.evaluate("() => document.body.dataset.cardSounds || '0'"))

    def play_one() -> None:
        page.wait_for_selector(PLAYABLE)
        before = board_moves(page)
        page.locator(PLAYABLE).last.click()
        page.wait_for_function(
            "moves => Number(document.querySelector('#board').dataset.moves) > moves", arg=before
        )

    play_one()
    assert heard() == 0  # off at first
    sounds = page.locator("[data-action=card-sounds]")
    sounds.click()
    assert sounds.get_attribute("aria-pressed") == "true" and heard() == 1  # a sample tick
    play_one()
    page.wait_for_function("() => Number(document.body.dataset.cardSounds) >= 2")
    page.locator("[data-volume]").fill("0")  # silent: chosen, but nothing to hear
    page.reload()
    page.wait_for_selector(PLAYABLE)
    assert page.locator("[data-action=card-sounds]").get_attribute("aria-pressed") == "true"
    assert page.locator("[data-volume]").input_value() == "0"
    play_one()
    assert heard() == 0
