"""Helpers of the bot arena's tests: bot accounts in the arena, arena games played out."""

from __future__ import annotations

from datetime import timedelta

from botarena.services import entry_join
from games.engine import CARD_CODES
from games.models import Game
from games.table import flow
from games.table.loading import game_load
from ratings.queue import queued_rate
from tests.botapi.conftest import make_bot_account
from tests.games.helpers import serve_due

SOON = timedelta(seconds=10)  # bots' and tricks' pauses are over; no clock (30 s) has run out
LATE = timedelta(minutes=10)  # every clock has run out


def arena_bots(make_user, count: int, prefix: str = "robo") -> list:
    """``count`` bot accounts, each in the arena."""
    bots = [make_bot_account(make_user(f"{prefix}{n}")) for n in range(count)]
    for bot in bots:
        entry_join(user=bot)
    return bots


def finish(game: Game, silent: frozenset = frozenset()) -> Game:
    """Play ``game`` out: site bots answer, each bot account plays its first card, except
    the ``silent`` ones, whose clocks run out (auto-played, then replaced)."""
    users = {seat.number: seat.user for seat in game.seats.all() if seat.user_id}
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            serve_due(game.pk, later=SOON)  # its aftermath: scoring, queued for rating
            queued_rate()  # as the ratings lane would
            game.refresh_from_db()
            return game
        state = game_load(game).state
        user = users.get(state.to_play)
        if user is None or game.seats.get(number=state.to_play).stand_in:
            serve_due(game.pk, later=SOON)
        elif user in silent:
            serve_due(game.pk, later=LATE)
        else:
            card = CARD_CODES[state.hands[state.to_play][0]]
            flow.play_card(game_id=game.pk, user=user, card=card, by_program=True)
