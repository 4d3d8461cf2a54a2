"""The public pages and the attribution the designer's licence requires."""

import os
import re
import subprocess
import sys

import pytest
from django.urls import reverse

ATTRIBUTION_LINK = "https://www.marksteeregames.com/"


@pytest.mark.parametrize("name", ["home", "rules"])
def test_pages_render_with_the_attribution_in_the_footer(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Mark Steere" in html and ATTRIBUTION_LINK in html
    scripts = re.findall(r'<script[^>]*\bsrc="([^"]+)"', html)
    # htmx and its WebSocket extension, from our own static files (never a CDN).
    assert any(re.fullmatch(r"/static/django_htmx/htmx-2(\.min)?\.js", src) for src in scripts)
    assert any("/static/django_htmx/ext/hx-ws" in src for src in scripts), scripts
    assert all(src.startswith("/static/") for src in scripts), scripts


def test_the_scripts_a_page_names_are_served(client):
    """Offline users and tests get htmx from us: each script a page names is ours."""
    from django.contrib.staticfiles import finders

    html = client.get(reverse("home")).content.decode()
    for src in re.findall(r'<script[^>]*\bsrc="/static/([^"]+)"', html):
        assert finders.find(src), src


def test_the_rules_page_attributes_the_game_and_states_the_cycle(client):
    html = client.get(reverse("rules")).content.decode()
    assert "designed by Mark Steere" in html
    assert "Cups &gt; Coins &gt; Swords &gt; Clubs &gt; Cups" in html


def test_deploy_check_is_clean_with_production_settings():
    env = {
        **os.environ,
        "SECRET_KEY": "a-long-random-production-secret-" + "x7Kq9" * 10,
        "ALLOWED_HOSTS": "coins.example.org",
        "DJANGO_DEBUG": "0",
        "DJANGO_HTTPS": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
