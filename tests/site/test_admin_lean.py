"""Admin lists rendered lean: every list of the admin, in English and French, gives the bytes
Django's own rendering gives; the games' people search reads no DISTINCT."""

import pytest
from django.contrib import admin
from django.contrib.admin import ModelAdmin
from django.contrib.admin.templatetags import admin_list
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from common import admin_lean
from games.table import seats as services
from tests.games.helpers import serve_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", password="pw-C-123"))
    return client


@pytest.fixture
def some_rows(alice, bob, carol):
    """Games, seats, ratings and profiles: rows (with checkboxes) in the main lists."""
    for creator in (alice, bob):
        game = services.game_create(
            creator=creator, target=5, seat_kinds=["me", "random", "random"]
        )
        serve_due(game.pk)


def every_list() -> list[str]:
    """Each list of the admin, and the games' list filtered and searched (the row links keep
    the list's filters)."""
    return [
        "/admin/games/game/?players=bots&target=5",
        "/admin/games/game/?q=ali",
        *sorted(
            f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
            for model in admin.site._registry
        ),
    ]


def test_the_lean_rendering_is_installed_for_every_admin():
    assert ModelAdmin.action_checkbox is admin_lean.action_checkbox
    assert admin_list.items_for_result is admin_lean.items_for_result
    for model_admin in admin.site._registry.values():
        assert model_admin.action_checkbox.__func__ is admin_lean.action_checkbox


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_admin_list_renders_the_bytes_django_renders(staff, some_rows, monkeypatch, language):
    lean = {}
    with translation.override(language):
        for url in every_list():
            response = staff.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            lean[url] = response.content
        monkeypatch.setattr(ModelAdmin, "action_checkbox", admin_lean.django_action_checkbox)
        monkeypatch.setattr(admin_list, "items_for_result", admin_lean.django_items_for_result)
        monkeypatch.setattr(admin_list, "_boolean_icon", admin_lean.django_boolean_icon)
        rows = 0
        for url in every_list():
            django = staff.get(url, HTTP_ACCEPT_LANGUAGE=language).content
            assert lean[url] == _without_tokens(django, lean[url]), url
            rows += django.count(b'name="_selected_action"')
    assert rows >= 10  # the comparison saw real rows, not only empty lists


def _without_tokens(django: bytes, lean: bytes) -> bytes:
    """Django's page with the lean page's CSRF token (each response masks its own)."""
    import re

    token = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')
    mine = token.search(lean)
    return token.sub(mine.group(0), django) if mine else django


def test_a_search_of_the_games_by_people_needs_no_distinct(staff, some_rows):
    with CaptureQueriesContext(connection) as queries:
        response = staff.get("/admin/games/game/", {"q": "ali"})
    assert response.status_code == 200
    assert b'name="_selected_action"' in response.content
    listing = [q["sql"] for q in queries.captured_queries if '"games_game"."target"' in q["sql"]]
    assert listing and not any("DISTINCT" in sql for sql in listing)
