"""The site runs under its Content-Security-Policy: a person signs up, walks every kind of
page, plays at a table with live updates, leaves a game (a confirm dialog), and steps
through a replay, and the browser reports no violation at all."""

import pytest
from django.contrib.auth import get_user_model

from games.table import seats as services
from tests.games.helpers import play_out

from .actions import play_a_card, sign_up, wait_for_a_push

pytestmark = pytest.mark.browser

# Recorded before any page script runs (Playwright's init scripts are not subject to CSP).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}`);
});
"""


def test_no_page_violates_the_content_security_policy(live_server_url, new_page):
    page = new_page()
    page.add_init_script(WATCH_VIOLATIONS)
    console_errors = []
    page.on("console", lambda m: m.type == "error" and console_errors.append(m.text))
    seen = []

    def visit(path: str) -> None:
        response = page.goto(f"{live_server_url}{path}")
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        seen.extend(page.evaluate("window.__violations"))

    for path in ("/", "/rules/", "/accounts/login/", "/accounts/signup/", "/games/", "/learn/"):
        visit(path)
    page.click("[data-action=start]")  # the lesson's steps come by htmx
    page.click("#hand button.suggested")
    page.wait_for_selector("#learn[data-phase='result']")
    sign_up(page, live_server_url, "cspcarla")
    user = get_user_model().objects.get(username="cspcarla")
    for path in ("/games/new/", "/accounts/profile/", "/players/cspcarla/", "/leaderboards/"):
        visit(path)
    finished = play_out(
        services.game_create(creator=user, target=5, seat_kinds=["me", "random", "random"]),
        user,
    )
    visit(f"/games/{finished.pk}/replay/")
    page.keyboard.press("ArrowRight")
    visit("/players/cspcarla/games/")
    page.goto(f"{live_server_url}/games/")
    page.click("[data-action=quick-play]")
    wait_for_a_push(page)
    page.wait_for_selector("#hand.can-play")
    play_a_card(page)
    page.once("dialog", lambda dialog: dialog.accept())  # the confirm, from data-confirm
    page.click("[data-action=resign]")
    page.wait_for_selector("#game-result")
    seen.extend(page.evaluate("window.__violations"))
    assert seen == [] and not [e for e in console_errors if "Content Security" in e]
    # The watch works: markup with an inline handler (as an injection would be) is blocked
    # and reported.
    page.evaluate("""document.body.insertAdjacentHTML(
        "beforeend", '<img src="/static/none.png" onerror="window.__ran = true">')""")
    page.wait_for_function("window.__violations.length > 0")
    assert page.evaluate("window.__ran") is None
