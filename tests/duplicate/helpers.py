"""Playing duplicate games to their end in tests, and duplicate events made and ended."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from duplicate.event_services import event_join
from duplicate.models import DuplicateEvent, EventTable
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


def an_event(people, **kwargs) -> DuplicateEvent:
    event = DuplicateEvent.objects.create(name="Winter duplicate", target=3, **kwargs)
    for person in people:
        event_join(user=person, event_id=event.pk)
    return event


def finish(game: Game, scores: tuple[int, int, int], winner: int | None) -> None:
    """End ``game`` with these seat scores (and winner), without playing it."""
    for seat, points in enumerate(scores):
        game.seats.filter(number=seat).update(score=points)
    status = Game.Status.FINISHED if winner is not None else Game.Status.ABANDONED
    Game.objects.filter(pk=game.pk).update(
        status=status, winner_seat=winner, finished_at=timezone.now()
    )


def tables_of(event, deal):
    return list(EventTable.objects.filter(event=event, deal=deal).select_related("game"))


def event_play_out(event, result=lambda deal, table: ((3, 1, 0), 0)) -> DuplicateEvent:
    """End every table of every deal left of a started event, ``result(deal, table)`` giving
    each table's seat scores and winner, the event moving on as the runners move it."""
    from duplicate.event_services import event_advance

    while True:
        event.refresh_from_db()
        if event.status != DuplicateEvent.Status.RUNNING:
            return event
        for table in tables_of(event, event.round):
            if table.game.status == Game.Status.IN_PROGRESS:
                finish(table.game, *result(event.round, table.number))
        event_advance(event.pk)
