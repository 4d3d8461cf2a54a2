"""The board's memo blocks (``games/templatetags/memo.py``) change no byte of any board: every
board of whole games, for a seated person and a watcher, in three languages, rendered with
the fragments kept from every earlier board and rendered from nothing, is the same."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from games.board.render import render_board, socket_request, viewer_context
from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load
from games.templatetags import memo

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


def boards(game_id: int, requests: list, kept: dict, monkeypatch) -> list[str]:
    """Every viewer's board in every language, from the fragments in ``kept``."""
    monkeypatch.setattr(memo, "_kept", kept)
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


@pytest.mark.django_db
@pytest.mark.parametrize("target", [10, 25])
def test_boards_with_kept_fragments_are_the_boards_rendered_afresh(target, make_user, monkeypatch):
    ann = make_user("ann")
    game = services.game_quick_play(user=ann, bot="careful", target=target)
    requests = [request_for(game, ann), request_for(game, AnonymousUser())]
    warm: dict = {}  # kept across every board of the game, every viewer and language
    compared = 0
    while True:
        serve_due(game.pk)
        game.refresh_from_db()
        fresh = [boards(game.pk, [r], {}, monkeypatch) for r in requests]  # nothing kept
        assert boards(game.pk, requests, warm, monkeypatch) == fresh[0] + fresh[1]
        compared += 1
        if game.status != Game.Status.IN_PROGRESS:
            break
        state = game_load(game).state
        if state.to_play == 0:
            flow.play_card(game_id=game.pk, user=ann, card=CARD_CODES[state.legal_cards(0)[-1]])
        else:
            serve_due(game.pk, later=timedelta(minutes=1))
    assert game.status == Game.Status.FINISHED and compared > 10
    assert len(warm) > 50  # the blocks were kept, and reused


def test_a_memo_block_without_values_is_refused():
    from django.template import Template, TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError):
        Template("{% load memo %}{% memo %}x{% endmemo %}")


def test_lazy_translations_are_keyed_by_their_text():
    from django.utils.translation import pgettext, pgettext_lazy

    with translation.override("es"):
        spanish = pgettext("suit", "Cups")
        assert spanish != "Cups"
        assert memo.frozen({"suit": pgettext_lazy("suit", "Cups")}) == (("suit", spanish),)
