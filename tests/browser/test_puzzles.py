"""Puzzles in the browser: a person solves three puzzles in a row, on a phone in the dark and
on a desktop in the light, and sees the analysis and their record after each."""

import pytest

from puzzles.models import Puzzle
from tests.puzzles.helpers import analysed, finished_game

from .actions import sign_up
from .conftest import ARTIFACTS

pytestmark = pytest.mark.browser
BOT_PAUSE = 0
SCREENSHOTS = ARTIFACTS  # the ones in docs/screenshots/ were taken here


@pytest.mark.parametrize(("width", "height", "scheme"), [(360, 740, "dark"), (1280, 800, "light")])
def test_three_puzzles_solved_one_after_another(
    live_server_url, new_page, django_user_model, width, height, scheme
):
    alice = django_user_model.objects.create_user(f"alice{width}", password="pw-Coins-123")
    analysed(finished_game(alice), count=3)
    page = new_page()
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)
    sign_up(page, live_server_url, f"solver{width}")
    page.get_by_role("link", name="Puzzles").click()
    seen = set()
    for round_number in range(1, 4):
        number = page.locator("[data-puzzle]").get_attribute("data-puzzle")
        assert number not in seen
        seen.add(number)
        puzzle = Puzzle.objects.get(pk=number)
        page.locator(f"#hand button[data-card='{puzzle.solution}']").click()
        page.wait_for_selector("[data-result][data-solved='true']")
        facts = page.evaluate(
            """() => ({solved: document.querySelector('[data-solved]').textContent,
                      streak: document.querySelector('[data-streak]').textContent,
                      values: document.querySelectorAll('[data-value]').length,
                      wide: document.documentElement.scrollWidth - window.innerWidth})"""
        )
        assert facts == {
            "solved": str(round_number),
            "streak": str(round_number),
            "values": len(puzzle.values),
            "wide": 0,
        }
        if round_number == 1:
            page.screenshot(
                path=str(SCREENSHOTS / f"puzzle-{width}-{scheme}-result.png"), full_page=True
            )
        page.locator("[data-action=next-puzzle]").click()
        page.wait_for_load_state()
    assert page.locator("[data-no-puzzle]").is_visible()
