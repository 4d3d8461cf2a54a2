"""A person plays a game, its analysis is done by the server's own analysis lane, and the
person finds their accuracy on the result panel and steps to their mistakes in the replay
with the "m" key, on a phone in the dark and on a desktop in the light."""

import pytest
from django.template.defaultfilters import floatformat

from analysis.models import GameAnalysis
from games.table import seats as services

from .actions import analysed, play_to_the_end, sign_up
from .conftest import ARTIFACTS
from .test_every_player import axe_violations, sideways_scroll, too_wide

pytestmark = pytest.mark.browser

SCREENSHOTS = ARTIFACTS  # the ones in docs/screenshots/ were taken here
SERIOUS = ("mistake", "blunder")


def a_mistake_after_the_first_trick(analysis: GameAnalysis) -> tuple[int, int]:
    """The trick of seat 0's first mistake or blunder after the first trick. The bot that
    analyses in tests thinks with a few deals only, so a game may have none: then one card
    of seat 0 that was a choice is labelled a blunder (what the page does is tested)."""
    mine = [
        p
        for p in analysis.plays
        if p["seat"] == 0 and (p["hand"], p["trick"]) > (1, 1) and len(p["values"]) > 1
    ]
    serious = [p for p in mine if p["label"] in SERIOUS and p["best"] != p["card"]]
    if not serious:
        play = mine[0]
        best = next(code for code in play["values"] if code != play["card"])
        play["values"][best], play["values"][play["card"]] = 0.7, 0.4
        play.update(best=best, loss=0.3, label="blunder")
        analysis.save(update_fields=["plays"])
        serious = [play]
    return serious[0]["hand"], serious[0]["trick"]


def next_mistake(page, hand: int, trick: int) -> dict:
    page.keyboard.press("m")
    page.wait_for_function(
        "([h, t]) => { const b = document.querySelector('#replay-board');"
        " return b && b.dataset.hand == h && b.dataset.trick == t"
        " && !b.classList.contains('htmx-settling') && !document.querySelector('.htmx-request'); }",
        arg=[hand, trick],
    )
    return page.evaluate(
        """() => {
          const mine = document.querySelector('#replay-trick li[data-seat="0"] .card-note');
          return {
            label: mine.dataset.label,
            badge: mine.querySelector('.label-badge').textContent.trim(),
            better: mine.querySelector('[data-better]')?.dataset.better,
            chance: mine.querySelector('.chance .sr-only').textContent,
            lines: document.querySelectorAll('#replay-analysis polyline').length,
          };
        }"""
    )


def test_a_player_sees_their_accuracy_and_steps_to_their_mistakes(
    live_server_url, new_page, django_user_model
):
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    sign_up(page, live_server_url, "mia")
    user = django_user_model.objects.get(username="mia")
    game = services.game_create(creator=user, target=5, seat_kinds=["me", "random", "random"])
    page.goto(f"{live_server_url}/games/{game.pk}/")
    page.wait_for_selector("body[data-ws='open']")
    play_to_the_end({"mia": page})

    analysis = analysed(game)
    # the result panel asks every few seconds until the analysis is done
    page.wait_for_selector("[data-analysis-summary]", timeout=20_000)
    summary = page.locator("[data-analysis-summary]").inner_text()
    assert f"Your accuracy: {floatformat(analysis.accuracy[0], 0)}%" in summary
    page.locator("#game-result").screenshot(
        path=str(SCREENSHOTS / "analysis-result-1280-light.png")
    )

    hand, trick = a_mistake_after_the_first_trick(analysis)
    for size, scheme in (((360, 740), "dark"), ((1280, 800), "light")):
        page.set_viewport_size(dict(zip(("width", "height"), size, strict=True)))
        page.emulate_media(color_scheme=scheme)
        page.goto(f"{live_server_url}/games/{game.pk}/replay/")
        page.wait_for_selector("#replay-analysis .chance-graph")
        shown = next_mistake(page, hand, trick)
        assert shown["label"] in SERIOUS and shown["badge"].endswith(shown["label"])
        assert shown["better"] and "with the best card" in shown["chance"]
        assert shown["lines"] == 3
        assert not axe_violations(page)
        assert not (sideways_scroll(page) and too_wide(page))
        page.screenshot(
            path=str(SCREENSHOTS / f"analysis-replay-{size[0]}-{scheme}.png"), full_page=True
        )
