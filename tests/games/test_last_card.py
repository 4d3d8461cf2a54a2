"""A game's last card: its board, sent to the person who played it, reads neither the
game's rating nor a rematch offer. Neither can exist before the card's transaction commits
(the rating comes from a runner afterwards, an offer from a person who has seen the result),
and each tells the table when it comes: the board it sends then shows it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import CARD_CODES
from games.models import Game
from games.realtime.socket_calls import play_and_render, render_for
from games.table import seats as services
from games.table.loading import game_load
from ratings.queue import queued_rate

from .helpers import serve_due
from .test_kept_pieces import request_for

pytestmark = pytest.mark.django_db(transaction=True)


def to_the_last_card(game: Game, user, request) -> tuple[str, list[str]]:
    """Play the person's first legal card at each turn (the bots' as a runner would) until
    the game ends; return its last board and the statements of its last card."""
    presence = {"users": [user.pk], "anonymous": 0}
    while True:
        serve_due(game.pk)
        fresh = Game.objects.get(pk=game.pk)
        state = game_load(fresh).state
        assert fresh.is_running and state.to_play == 0
        card = CARD_CODES[state.legal_cards(0)[0]]
        with CaptureQueriesContext(connection) as queries:
            board, _moves, status, _shown, _notices = play_and_render(
                game.pk, request, card, "test", presence, {"moves": fresh.moves}, "", None
            )
        if status != Game.Status.IN_PROGRESS:
            return board, [query["sql"] for query in queries]


def test_the_last_cards_board_reads_no_rating_nor_rematch_and_the_rating_comes_after(alice):
    game = services.game_quick_play(user=alice, bot="careful", target=1)
    assert game.is_rated
    request = request_for(game, alice)
    board, sql = to_the_last_card(game, alice, request)
    assert 'id="game-result"' in board
    assert "data-rating-pending" in board and 'data-action="rematch"' in board
    assert not [s for s in sql if "rematch" in s or "mu_before" in s], sql
    serve_due(game.pk)  # its aftermath: queued for its rating
    assert queued_rate() == 1  # a ratings lane rates it (and would tell the table)
    presence = {"users": [alice.pk], "anonymous": 0}
    later = render_for(game.pk, "", request, None, presence)[0]
    assert 'id="game-result"' in later and "data-rating-pending" not in later
    assert 'data-action="rematch"' in later
