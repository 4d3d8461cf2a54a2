"""Playing duplicate games to their end in tests."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from duplicate.services import duplicate_play
from games.engine import CARD_CODES, NotYourTurn
from games.models import Game
from games.table import flow
from games.table.loading import game_load
from tests.games.helpers import serve_due


def play_through(game: Game, user, pick=lambda hand: hand[0]) -> Game:
    """Finish ``game`` (``user`` in seat 0): the bots answer, ``user`` plays ``pick(hand)``."""
    while True:
        serve_due(game.pk, later=timedelta(minutes=1))
        game.refresh_from_db()
        if game.status != Game.Status.IN_PROGRESS:
            return game
        state = game_load(game).state
        if state.to_play != 0:
            continue
        try:
            flow.play_card(game_id=game.pk, user=user, card=CARD_CODES[pick(state.hands[0])])
        except NotYourTurn:
            continue


def finished_result(user, *, number: int, points: int, won: bool, day) -> Game:
    """``user``'s game ``number`` of ``day``, finished with ``points`` in seat 0 (and won or
    not) without playing it: the results a rating test needs, exactly."""
    game = duplicate_play(user=user, number=number, day=day)
    game.seats.filter(number=0).update(score=points)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, winner_seat=0 if won else 1, finished_at=timezone.now()
    )
    return game
