"""The board's kept pieces change no byte of any board: every board of whole games, for a
seated person and a watcher, in three languages, rendered with the pieces kept from every
earlier board (``games/board/felt.py``, ``games/board/board_html.py``) and rendered from
nothing, is the same; and the hand's buttons, built in Python once each, are what the
template that drew them before gave, for every card, verdict and kind of button."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation
from django.utils.html import escape as django_escape
from django.utils.safestring import mark_safe
from django.utils.translation import pgettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from games.board import card_names, felt
from games.board.render import render_board, socket_request, viewer_context
from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import serve_due

LANGUAGES = ("en", "es", "fr")


def request_for(game: Game, user) -> object:
    scope = {
        "type": "websocket",
        "headers": [(b"host", b"testserver"), (b"origin", b"http://testserver")],
        "user": user,
        "query_string": b"",
        "client": ("127.0.0.1", 1),
    }
    return socket_request(scope, game.pk)


def boards(game_id: int, requests: list, kept: dict, monkeypatch, whys=None) -> list[str]:
    """Every viewer's board in every language, from the fragments in ``kept`` and the
    tricks' sentences in ``whys`` (none: from nothing)."""
    monkeypatch.setattr(felt, "_kept", kept)
    monkeypatch.setattr(card_names, "_whys", {} if whys is None else whys)
    game = Game.objects.get(pk=game_id)
    loaded = game_load(game) if game.was_dealt else None
    shown = []
    for request in requests:
        for language in LANGUAGES:
            with translation.override(language):
                presence = {"users": [request.user.pk] if request.user.pk else [], "anonymous": 1}
                context = viewer_context(game, request, loaded=loaded, presence=presence)
                shown.append(render_board(context, request))
    return shown


def compare_a_game(ann, target: int, warm: dict, monkeypatch, whys: dict) -> int:
    """Play a game to its end, comparing every board on the way; return how many."""
    game = services.game_quick_play(user=ann, bot="careful", target=target)
    requests = [request_for(game, ann), request_for(game, AnonymousUser())]
    compared = 0
    while True:
        serve_due(game.pk)
        game.refresh_from_db()
        fresh = [boards(game.pk, [r], {}, monkeypatch) for r in requests]  # nothing kept
        assert boards(game.pk, requests, warm, monkeypatch, whys) == fresh[0] + fresh[1]
        compared += 1
        if game.status != Game.Status.IN_PROGRESS:
            assert game.status == Game.Status.FINISHED
            return compared
        state = game_load(game).state
        if state.to_play == 0:
            flow.play_card(game_id=game.pk, user=ann, card=CARD_CODES[state.legal_cards(0)[-1]])
        else:
            serve_due(game.pk, later=timedelta(minutes=1))


@pytest.mark.django_db
@pytest.mark.parametrize("target", [10, 25])
def test_boards_with_kept_fragments_are_the_boards_rendered_afresh(target, make_user, monkeypatch):
    """Whole games (as many as it takes to compare 40 boards: a game to 10 can end within a
    few tricks), with the fragments kept across them all."""
    ann = make_user("ann")
    warm: dict = {}  # kept across every board of the games, every viewer and language
    whys: dict = {}
    compared = 0
    while compared < 40:
        compared += compare_a_game(ann, target, warm, monkeypatch, whys)
    assert len(warm) > 50  # the blocks were kept, and reused
    assert whys  # and the tricks' sentences


@given(st.one_of(st.text(), st.integers(), st.none(), st.floats(allow_nan=False)))
def test_the_board_s_escape_is_django_s(value):
    """``felt.escape`` skips Django's look for lazy arguments and nothing else."""
    assert felt.escape(value) == django_escape(value)
    assert felt.escape(mark_safe(str(value))) == django_escape(mark_safe(str(value)))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_board_s_escape_of_a_lazy_text_is_django_s_in_the_active_language(language):
    with translation.override(language):
        lazy = pgettext_lazy("suit", "Swords")
        assert felt.escape(lazy) == str(django_escape(lazy)) == django_escape(str(lazy))


# The hand as the board's template drew it before ``{% hand_buttons %}`` (games/templatetags/
# cards.py) took its place.
TEMPLATE_HAND = (
    "{% load i18n cards %}"
    '{% for card in hand %}{% if can_play %}<button type="submit" name="card" '
    'value="{{ card.code }}" class="card" data-card="{{ card.code }}"{% if '
    'card.verdict %} data-verdict="{{ card.verdict }}"{% endif %}>{% elif '
    'game.is_running and not stood_in %}<button type="button" class="card" '
    'data-card="{{ card.code }}" data-premove aria-pressed="false">{% else %}<button '
    'type="button" class="card" data-card="{{ card.code }}" disabled>{% endif %}{% '
    'card_face card card.play_label %}{% if card.verdict %}<span class="verdict">{% '
    'if card.verdict == "wins" %}<span aria-hidden="true">✓</span><span '
    'class="verdict-text"> {% translate "takes the trick" %}</span>{% elif '
    'card.verdict == "can-win" %}<span aria-hidden="true">?</span><span '
    'class="verdict-text"> {% translate "can win" %}</span>{% else %}<span '
    'aria-hidden="true">✗</span><span class="verdict-text"> {% translate "cannot '
    'win" %}</span>{% endif %}</span>{% endif %}</button>{% empty %}<p class="hint">'
    '{% translate "No cards left." %}</p>{% endfor %}'
)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_hand_buttons_are_the_template_s(language):
    from django.template import Context, Template

    from games.board.presenters import hand_card
    from games.templatetags.cards import hand_buttons

    template = Template(TEMPLATE_HAND)
    kinds = [(True, True, False), (False, True, False), (False, True, True), (False, False, False)]
    with translation.override(language):
        for verdict in (None, "wins", "can-win", "cannot-win"):
            hand = [hand_card(card, verdict) for card in range(len(CARD_CODES))]
            for can_play, running, stood_in in kinds:
                context = {"hand": hand, "can_play": can_play, "stood_in": stood_in}
                context["game"] = {"is_running": running}
                expected = template.render(Context(context))
                assert hand_buttons(hand, can_play, running, stood_in) == expected
        empty = template.render(Context({"hand": [], "can_play": False, "game": {}}))
        assert hand_buttons([], False, True, False) == empty
