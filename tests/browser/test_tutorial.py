"""Learn to play in a real browser: a newcomer on a phone in dark mode finds the lesson on the
home page and plays it to the end with clicks, reading each explanation, without the page
ever reloading; at 1280 px in light mode someone starts it again in Spanish, playing other
cards than the suggested ones."""

import pytest

from games.tutorial import script

from .conftest import ARTIFACTS
from .test_every_player import axe_violations, sideways_scroll, too_wide

pytestmark = pytest.mark.browser

SCREENSHOTS = ARTIFACTS  # the ones in docs/screenshots/ were taken here
CASE_NAMES = [
    "Three different suits",
    "Two cards of one suit",
    "One suit",
    "Three different suits",
    "Two cards of one suit",
]


def lesson_at(page, phase: str, step: int) -> None:
    """Wait until the lesson shows ``phase`` at ``step`` and htmx has settled it."""
    page.wait_for_function(
        "([phase, step]) => { const l = document.querySelector('#learn');"
        " return l && l.dataset.phase === phase && l.dataset.step == step"
        " && !document.querySelector('.htmx-request, .htmx-settling'); }",
        arg=[phase, step],
    )


def panel_text(page) -> str:
    return page.locator(".learn-panel").inner_text()


def test_a_newcomer_on_a_phone_in_dark_mode_plays_the_lesson_to_the_end(live_server_url, page):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server_url}/")
    page.click("[data-action=learn]")
    lesson_at(page, "intro", 1)
    assert "Step 1 of 7" in page.locator(".learn-step").inner_text()
    page.evaluate("() => { window.stayed = true; }")  # gone if a step reloads the page
    page.click("[data-action=start]")

    for number, code in enumerate(script.SUGGESTED, 1):
        lesson_at(page, "turn", number + 1)
        text = panel_text(page)
        assert f"Trick {number}: your turn" in text and "Suggested:" in text, text
        assert page.evaluate("() => document.activeElement.tagName") == "H2"  # read first
        if number == 1:
            assert "Ana led the King of Swords." in text
            assert page.locator("#hand button[data-verdict]").count() == 16  # ✓ or ✗ on each
            page.mouse.move(0, 0)  # no hover frame in the picture
            page.screenshot(path=str(SCREENSHOTS / "learn-360-dark-turn.png"), full_page=True)
        page.click(f"#hand button.suggested[data-card='{code}']")
        lesson_at(page, "result", number + 1)
        text = panel_text(page)
        assert f"Trick {number}: {CASE_NAMES[number - 1]}" in text, text
        assert "takes the trick" in text or "take the trick" in text
        assert "Against these two cards" in text
        assert page.locator(f"#trick [data-card='{code}']").count() == 1
        assert sideways_scroll(page) <= 0, too_wide(page)
        if number == 2:
            assert "even though Clubs beat Cups" in text
            page.screenshot(path=str(SCREENSHOTS / "learn-360-dark-result.png"), full_page=True)
        page.click("[data-action=next]")

    lesson_at(page, "end", 7)
    text = panel_text(page)
    assert "You're ready" in text and page.locator("[data-recap]").count() == script.TRICKS
    assert page.evaluate("() => window.stayed === true")  # every step came by htmx
    assert axe_violations(page) == []
    page.click(".learn-end [data-action=rules]")
    page.wait_for_url(f"{live_server_url}/rules/")


def test_at_1280_in_light_mode_the_lesson_restarts_and_works_in_spanish(live_server_url, page):
    SCREENSHOTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.emulate_media(color_scheme="light")
    page.goto(f"{live_server_url}/learn/")
    page.click("[data-action=start]")
    lesson_at(page, "turn", 2)
    page.click("#hand button[data-card='2O']")
    lesson_at(page, "result", 2)
    page.mouse.move(0, 0)
    page.screenshot(path=str(SCREENSHOTS / "learn-1280-light-result.png"), full_page=True)

    # The footer's language switcher, then "Start again": the lesson from the beginning.
    page.select_option("#language-select", "es")
    page.click("[data-action=set-language]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "es"
    lesson_at(page, "result", 2)  # the session kept the lesson where it was
    page.click("[data-action=restart]")
    lesson_at(page, "intro", 1)
    page.click("[data-action=start]")
    for number in range(1, script.TRICKS + 1):
        lesson_at(page, "turn", number + 1)
        page.locator("#hand button.card").last.click()  # not the suggested card: the last one
        lesson_at(page, "result", number + 1)
        assert page.locator(".learn-why").inner_text().strip()  # in the rules page's Spanish
        if number == 1:  # the 2 of Clubs pairs with Leo's 4 of Clubs
            assert "Dos cartas del mismo palo" in page.locator(".learn-panel h2").inner_text()
        page.click("[data-action=next]")
    lesson_at(page, "end", 7)
    assert page.locator("[data-recap]").count() == script.TRICKS
    assert sideways_scroll(page) <= 0, too_wide(page)
