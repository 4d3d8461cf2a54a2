"""The Spanish translation served to players who chose it (every language's catalog is
checked in tests/test_translations.py)."""

import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after_each_test():
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def make_player(django_user_model):
    def make(username: str, language: str):
        user = django_user_model.objects.create_user(username, password="tricky-coins-42")
        Profile.objects.filter(user=user).update(language=language)
        return user

    return make


def suit_cycle(html: str) -> list[str]:
    """The five suit names of the first suit cycle on the page, in order."""
    start = html.find('class="cycle"')
    assert start != -1, "no suit cycle on the page"
    names = re.findall(r'<span class="(?:suit )?suit-[COEB]">(?:\W\s)?([^<]+)</span>', html[start:])
    return names[:5]


def quick_play_table(client) -> str:
    """Start a game against bots, let them play their opening, and show the table."""
    from games.models import Game
    from tests.games.helpers import serve_due

    response = client.post(reverse("quick_play"))
    assert response.status_code == 302
    serve_due(Game.objects.latest("created_at").pk)
    response = client.get(response["Location"])
    assert response.status_code == 200
    return response.content.decode()


def hand_of(html: str) -> list[str]:
    hand = re.search(r'<section id="hand".*?</section>', html, re.S)
    return re.findall(r'data-card="([^"]+)"', hand[0]) if hand else []


# -- pages ----------------------------------------------------------------------------------


def test_a_spanish_player_gets_the_home_page_in_spanish(client, make_player):
    client.force_login(make_player("ana", "es"))

    response = client.get(reverse("home"), headers={"accept-language": "en"})

    html = response.content.decode()
    assert response["Content-Language"] == "es"
    assert '<html lang="es">' in html
    assert suit_cycle(html) == ["Copas", "Oros", "Espadas", "Bastos", "Copas"]
    assert "Jugar ya contra dos bots" in html
    assert "Aprende las reglas" in html
    assert "Play now against two bots" not in html
    assert "Learn the rules" not in html


def test_a_spanish_player_gets_the_table_in_spanish(client, make_player):
    client.force_login(make_player("ana", "es"))

    html = quick_play_table(client)

    assert suit_cycle(html) == ["Copas", "Oros", "Espadas", "Bastos", "Copas"]
    assert 'title="Cada palo vence al siguiente"' in html
    assert re.search(r"Gana el primero en llegar a <strong>\d+</strong> puntos", html)
    assert "Mano 1 · baza " in html and " de 16" in html
    assert re.search(r"<span class=\"dealt\">Reparte [^<]+</span>", html)
    assert 'aria-label="Tu mano"' in html
    # The status line comes from Python (games.board.presenters), not from the template.
    status = re.search(r'<p id="status" class="status">([^<]*)</p>', html)
    assert status and re.match(r"(Tu turno|Esperando a )", status[1]), status
    for english in ("Each suit beats the next one", "Your hand", "First to <strong>"):
        assert english not in html
    # Card names are the Spanish ones too ("Jugar Rey de Oros"), not the engine's English.
    labels = re.findall(r'<button[^>]*class="card".*?<span class="sr-only">([^<]+)</span>', html)
    spanish = r"Jugar .+ de (Copas|Oros|Espadas|Bastos)( a continuación)?"  # (ahead: "next")
    assert labels and all(re.fullmatch(spanish, x) for x in labels)
    assert " of Cups" not in html and " of Coins" not in html


def test_refusals_and_the_connection_banner_are_in_spanish_too(client, make_player, settings):
    """The engine's refusals are English (it has no Django): the player reads them in
    their language, and so the socket banner that table.js shows."""
    from games.engine import CARD_CODES
    from games.models import Game

    settings.COINS_BOT_PAUSE = 0  # the bots' opening is played before the page shows
    client.force_login(make_player("ana", "es"))
    html = quick_play_table(client)
    assert 'data-closed="Conexión perdida: reconectando…"' in html
    game = Game.objects.latest("created_at")
    url = reverse("game_play", args=[game.pk])
    not_held = next(code for code in CARD_CODES if code not in hand_of(html))
    for card, message in ((not_held, "Esa carta no está en tu mano."), ("99Z", "Eso no es")):
        page = client.post(url, {"card": card}, follow=True).content.decode()
        assert message in page, card
        assert "not in your hand" not in page and "is not a card" not in page


def test_the_rules_page_is_in_spanish_suit_names_included(client):
    html = client.get(reverse("rules"), headers={"accept-language": "es"}).content.decode()
    rules = html[html.index("<article") : html.index("</article>")]
    assert "Las reglas de Coins" in rules and "baza" in rules
    assert rules.count("Oros") >= 3  # the suit table, the cycle and the scoring
    for english in ("Cups", "Swords", "Clubs", "Who wins a trick", "The deck"):
        assert english not in rules, english


def test_an_english_player_still_gets_english(client, make_player):
    client.force_login(make_player("bea", "en"))

    home = client.get(reverse("home"), headers={"accept-language": "es"})
    assert home["Content-Language"] == "en"
    assert suit_cycle(home.content.decode()) == ["Cups", "Coins", "Swords", "Clubs", "Cups"]
    assert "Play now against two bots" in home.content.decode()

    html = quick_play_table(client)
    assert suit_cycle(html) == ["Cups", "Coins", "Swords", "Clubs", "Cups"]
    assert 'title="Each suit beats the next one"' in html
    assert 'aria-label="Your hand"' in html
    for spanish in ("Copas", "Oros", "Cada palo vence al siguiente", "Tu mano"):
        assert spanish not in html


# -- the catalog ----------------------------------------------------------------------------


def test_why_a_trick_was_won_is_said_in_the_viewers_language():
    """The table and the replay explain tricks through ``trick_why``: in English exactly the
    engine's sentence, in Spanish with Spanish card and suit names."""
    from itertools import permutations

    from games.board.card_names import trick_why
    from games.engine import trick_case

    with translation.override("en"):
        for cards in list(permutations(range(48), 3))[::97]:
            assert trick_why(cards) == trick_case(cards).explain(cards)
    with translation.override("es"):
        assert trick_why((0, 13, 26)) == "Tres palos, faltan Bastos: ganan Copas."
        assert trick_why((1, 0, 13)) == (
            "Pareja de Copas: el 3 de Copas gana al 2 de Copas; la carta desparejada nunca gana."
        )
        assert trick_why((11, 10, 9)) == "Las tres de Copas: gana la más alta, el As de Copas."
