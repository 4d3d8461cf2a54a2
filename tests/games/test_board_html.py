"""The board built in Python (``games/board/board_html.py``, ``games/board/felt.py``) is
what the template it replaced (``tests/games/board_reference.html``) drew: a waiting table,
every board of whole games (with a clock, a seat taken over by a bot, hands' summaries, the
hint button of an unrated game) to their result, and an abandoned one; for the player and a
watcher, in every language. Runs of whitespace between tags count as one space, as the
browser reads them."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template import engines
from django.utils import timezone, translation

from games.board.render import render_board, viewer_context
from games.engine import CARD_CODES
from games.models import Game, Rematch, Seat
from games.table import flow, state_cache
from games.table import seats as services
from games.table.loading import game_load
from games.table.rematch import rematch_accept, rematch_decline
from ratings.queue import queued_rate

from .helpers import serve_due
from .test_kept_pieces import request_for

pytestmark = pytest.mark.django_db

WHITESPACE = re.compile(r"\s+")


def spaced(html: str) -> str:
    return WHITESPACE.sub(" ", html).strip()


REFERENCE = engines["django"].from_string(
    (Path(__file__).parent / "board_reference.html").read_text()
)


def compare(game: Game, requests: list) -> int:
    """Compare the board of ``game`` as it stands for every viewer and language."""
    loaded = game_load(game) if game.was_dealt else None
    compared = 0
    for request in requests:
        for language, _ in settings.LANGUAGES:
            with translation.override(language):
                presence = {"users": [request.user.pk] if request.user.pk else [], "anonymous": 3}
                context = viewer_context(game, request, loaded=loaded, presence=presence)
                expected = REFERENCE.render(context, request)
                assert spaced(render_board(context, request)) == spaced(expected)
                compared += 1
    return compared


def play_out(game: Game, ann, requests: list, stand_in_after: int | None = None) -> int:
    compared = 0
    while True:
        serve_due(game.pk)
        game.refresh_from_db()
        compared += compare(game, requests)
        if not game.is_running:
            return compared
        state = game_load(game).state
        if stand_in_after is not None and game.moves > stand_in_after:
            Seat.objects.filter(game=game, number=0).update(stand_in="careful")
            state_cache.drop((game.pk, game.seed))  # as a stand-in's commit leaves it
            compared += compare(game, requests)  # "You were away too long"
            serve_due(game.pk, later=timedelta(minutes=1))
        elif state.to_play == 0:
            flow.play_card(game_id=game.pk, user=ann, card=CARD_CODES[state.legal_cards(0)[-1]])
        else:
            serve_due(game.pk, later=timedelta(minutes=1))


def test_the_board_is_the_template_s_along_whole_games(make_user):
    ann = make_user("ann<&\"'>")  # a name the HTML must escape
    bob = make_user("bob")
    waiting = services.game_create(creator=ann, target=10, seat_kinds=["me", "open", "careful"])
    viewers = [request_for(waiting, user) for user in (ann, bob, AnonymousUser())]
    compared = compare(waiting, viewers)
    rated = services.game_create(creator=ann, target=12, seat_kinds=["me", "careful", "careful"])
    compared += play_out(rated, ann, [request_for(rated, ann), request_for(rated, bob)])
    timed = services.game_create(
        creator=ann, target=12, seat_kinds=["me", "careful", "careful"], clock=60, is_rated=False
    )
    requests = [request_for(timed, ann), request_for(timed, AnonymousUser())]
    compared += play_out(timed, ann, requests, stand_in_after=30)
    assert compared > 300


def test_an_abandoned_game_s_board_is_the_template_s(make_user):
    ann = make_user("ann")
    game = services.game_quick_play(user=ann, bot="careful", target=12)
    serve_due(game.pk)
    flow.resign(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert compare(game, [request_for(game, ann), request_for(game, AnonymousUser())]) > 0


def test_the_result_in_every_rematch_state_is_the_template_s(make_user):
    ann, bob, carol = make_user("ann<&\"'>"), make_user("bob"), make_user("carol")
    game = services.game_create(
        creator=ann, target=10, seat_kinds=["me", "open", "careful"], is_rated=False
    )
    services.seat_join(game_id=game.pk, user=bob)
    serve_due(game.pk)
    flow.resign(game_id=game.pk, user=bob)
    game.refresh_from_db()
    viewers = [request_for(game, user) for user in (ann, bob, carol, AnonymousUser())]
    states = []

    def compared_in(state: str) -> int:
        html = spaced(render_board(viewer_context(game, viewers[0]), viewers[0]))
        states.append(re.search(r'data-rematch="(\w+)"', html).group(1))
        assert states[-1] == state
        return compare(game, viewers)

    compared = compared_in("none")
    rematch_accept(game_id=game.pk, user=ann)
    compared += compared_in("open")  # ann waits for bob; bob may accept or decline
    rematch_decline(game_id=game.pk, user=bob)
    compared += compared_in("declined")
    rematch_accept(game_id=game.pk, user=bob)
    Rematch.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    compared += compared_in("expired")
    rematch_accept(game_id=game.pk, user=bob)
    rematch_accept(game_id=game.pk, user=ann)
    compared += compared_in("started")
    assert compared == 5 * 4 * len(settings.LANGUAGES)


def test_a_won_game_s_result_shows_its_ratings_as_the_template_did(make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, target=10, seat_kinds=["me", "careful", "careful"])
    play_out(game, ann, [request_for(game, ann)])
    game.refresh_from_db()
    request = request_for(game, ann)
    just_ended = render_board(viewer_context(game, request, just_ended=True), request)
    assert "data-rating-pending" in just_ended and 'class="rating-change"' not in just_ended
    assert queued_rate() == 1  # as the ratings lane would
    html = render_board(viewer_context(game, request), request)
    assert html.count('class="rating-change"') == 3 and "data-your-place" in html
    assert 'class="winner-name"' in html and "data-rating-pending" not in html
    assert compare(game, [request, request_for(game, AnonymousUser())]) == 2 * len(
        settings.LANGUAGES
    )
