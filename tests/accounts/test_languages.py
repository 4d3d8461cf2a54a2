"""Every language of the rules, as a visitor picks it and as a member's profile sets it."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from games.board.card_names import card_label, trick_why
from games.table import seats as services

pytestmark = pytest.mark.django_db

# Each language's suit names, as its rule texts use them, and its words on the home page.
SUITS = {
    "es": ("Copas", "Oros", "Espadas", "Bastos"),
    "ca": ("Copes", "Monedes", "Espases", "Trèbols"),
    "fr": ("Coupes", "Pièces", "Épées", "Bâtons"),
    "id": ("Cawan", "Koin", "Pedang", "Klub"),
}


@pytest.fixture(autouse=True)
def _english_after_each_test():
    yield
    translation.activate(settings.LANGUAGE_CODE)


def cycle_names(html: str) -> list[str]:
    start = html.index('class="cycle"')
    return re.findall(r'<span class="suit-[COEB]">([^<]+)</span>', html[start : start + 800])[:4]


@pytest.mark.parametrize("language", sorted(SUITS))
def test_a_visitor_switches_language_and_the_table_names_the_suits_as_the_rules_do(
    client, django_user_model, language
):
    home = client.get(reverse("home")).content.decode()
    assert 'name="language"' in home and f'value="{language}"' in home  # the switcher
    response = client.post(reverse("set_language"), {"language": language, "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    rules = client.get(reverse("rules"))
    assert rules["Content-Language"] == language
    assert f'<html lang="{language}"' in rules.content.decode()
    for suit in SUITS[language]:
        assert suit in rules.content.decode()

    player = django_user_model.objects.create_user("ana", password="tricky-coins-42")
    game = services.game_quick_play(user=player)
    table = client.get(game.get_absolute_url()).content.decode()
    assert cycle_names(table) == list(SUITS[language])


@pytest.mark.parametrize("language", sorted(SUITS))
def test_a_members_profile_language_wins_over_the_browser(client, django_user_model, language):
    user = django_user_model.objects.create_user("ben", password="tricky-coins-42")
    Profile.objects.filter(user=user).update(language=language)
    client.force_login(user)
    html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<html lang="{language}"' in html
    assert 'data-action="language"' in html and 'name="language"' not in html  # profile link


def test_card_names_elide_where_the_language_does():
    """Catalan and French say "d'Espases" and "d'Épées", not "de Espases"."""
    names = {}
    for language in ("en", "es", "ca", "fr", "id"):
        with translation.override(language):
            names[language] = card_label(35)  # the Ace of Swords
    assert names == {
        "en": "Ace of Swords",
        "es": "As de Espadas",
        "ca": "As d'Espases",
        "fr": "As d'Épées",
        "id": "As Pedang",
    }
    with translation.override("ca"):
        assert trick_why((25, 24, 0)).startswith("Parella d'Espases:")


def test_every_language_is_offered_in_the_profile():
    from accounts.forms import language_choices

    codes = [code for code, _name in language_choices()]
    assert {"en", "es", "ca", "fr", "id"} <= set(codes)


def test_bot_levels_on_the_leaderboards_are_named_in_the_readers_language():
    from ratings.models import PlayerRating

    rating = PlayerRating(bot="heuristic")
    with translation.override("es"):
        assert rating.label == "Bot (Fácil)"
    with translation.override("fr"):
        assert rating.label == "Bot (Facile)"
