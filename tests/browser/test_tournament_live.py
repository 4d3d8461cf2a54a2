"""A tournament's page in the browser: its socket opens, and someone joining shows in the
standings through it, with no poll while the socket is open (the poll is the fallback)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.models import Tournament

from .actions import sign_up

pytestmark = pytest.mark.browser


def test_standings_arrive_over_the_socket_without_polling(live_server_url, new_page):
    """Two people, two browsers: Ben joining from his shows on Ana's open page through its
    socket, with no poll."""
    tournament = Tournament.objects.create(
        name="Evening arena",
        kind="arena",
        starts_at=timezone.now() + timedelta(hours=1),
        ends_at=timezone.now() + timedelta(hours=2),
    )
    url = f"{live_server_url}{tournament.get_absolute_url()}"
    page = new_page()
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
    ben = new_page()
    sign_up(ben, live_server_url, "ben", next_url=tournament.get_absolute_url())
    ben.goto(url)
    ben.locator("[data-action=tournament-join]").click()
    ben.wait_for_selector("[data-player='ben']")
    page.wait_for_selector("[data-player='ben']")
    assert polls == []  # it came over the socket
    assert page.locator("[data-player='ana']").get_attribute("class") == "you"
    assert page.locator("[data-player='ben']").get_attribute("class") != "you"
