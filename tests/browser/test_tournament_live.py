"""A tournament's page in the browser: its socket opens, and someone joining shows in the
standings through it, with no poll while the socket is open (the poll is the fallback)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.services import entry_join

from .actions import sign_up

pytestmark = pytest.mark.browser


def test_standings_arrive_over_the_socket_without_polling(live_server_url, page):
    tournament = Tournament.objects.create(
        name="Evening arena",
        kind="arena",
        starts_at=timezone.now() + timedelta(hours=1),
        ends_at=timezone.now() + timedelta(hours=2),
    )
    url = f"{live_server_url}{tournament.get_absolute_url()}"
    polls = []
    page.on(
        "request",
        lambda request: polls.append(request.url) if request.headers.get("hx-request") else None,
    )
    sign_up(page, live_server_url, "ana", next_url=tournament.get_absolute_url())
    page.goto(url)
    page.locator("[data-action=tournament-join]").click()
    page.wait_for_selector("body[data-tournament-socket='open']")
    page.wait_for_selector("[data-player='ana']")
    ben = get_user_model().objects.create_user("ben", password="pw-Coins-123")
    # As a page's request would (Playwright keeps an event loop in this thread).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(entry_join, tournament_id=tournament.pk, user=ben).result()
    page.wait_for_selector("[data-player='ben']")
    assert polls == []  # it came over the socket
    assert page.locator("[data-player='ana']").get_attribute("class") == "you"
