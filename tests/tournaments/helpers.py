"""Playing tournament games to their end in tests: every person plays their first card."""

from __future__ import annotations

from datetime import timedelta

from games.engine import CARD_CODES, NotYourTurn
from games.models import Game
from games.table import flow
from games.table.loading import game_load
from tests.games.helpers import serve_due


def finish(game: Game) -> Game:
    """Play ``game`` out: bots answer, each person plays the first card of their hand."""
    users = {seat.number: seat.user for seat in game.seats.all() if seat.user_id}
    while True:
        serve_due(game.pk, later=timedelta(minutes=1))
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            serve_due(game.pk, later=timedelta(minutes=1))  # its aftermath: scoring
            return game
        state = game_load(game).state
        user = users.get(state.to_play)
        if user is None:
            continue
        try:
            flow.play_card(
                game_id=game.pk, user=user, card=CARD_CODES[state.hands[state.to_play][0]]
            )
        except NotYourTurn:
            continue
