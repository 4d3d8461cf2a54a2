"""The public pages and the attribution the designer's licence requires."""

import os
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
    assert "/static/django-htmx/" in html or "htmx" in html


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
