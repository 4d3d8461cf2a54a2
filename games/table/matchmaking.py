"""Find a game: a queue that seats people together by target and table speed.

The queue is made of tables: pressing "Find a game" seats the person at the oldest table of
the queue with the same options and a free seat, or opens one. Matching happens under the
lock of the options' ``MatchQueue`` row, so two people pressing at once, on any server
process, are served one after the other and sit at one table. The person chose how long to
wait for people before bots take the free seats (never, 30 s, 2 min); a person arriving
after that still takes a bot's seat, until the first card is played. Leaving the queue is
the table's Leave button, or closing the page: a queue table's runner check unseats anyone
whose page has been gone for ``GONE_AFTER`` (that check, and bots filling the seats when
the wait is over, are the waiting tables' checks of ``games/table/lifecycle.py``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.history.player_records import seats_dealt
from games.models import Game, MatchQueue, Seat
from games.realtime.push import notify_table
from games.table.errors import GameError, SeatUnavailable
from games.table.lifecycle import locked_game, reschedule, wait_for_people
from games.table.options import COMMON_TARGETS, QUEUE_CLOCKS, WAITS
from games.table.seats import check_table_limits, game_create, lock_person, seat_join, seat_leave


class QueueRefused(GameError):
    code = "queue_refused"


def find_game(*, user, target: int, clock: int | None, wait: int | None) -> Game:
    """Seat ``user`` at a queue table with these options: a forming one, a just-started
    one whose bot they replace before the first card, or a new one. Return it."""
    if target not in COMMON_TARGETS or clock not in QUEUE_CLOCKS or wait not in WAITS:
        raise QueueRefused(_("Choose a target, a speed and a wait from the lists."))
    now = timezone.now()
    with transaction.atomic():
        lock_person(user)  # first, as every request to open or join a table does
        queue, _created = MatchQueue.objects.get_or_create(target=target, clock=clock or 0)
        MatchQueue.objects.select_for_update().get(pk=queue.pk)  # one match at a time
        _leave_other_queue_tables(user)
        tables = Game.objects.filter(from_queue=True, target=target, clock=clock)
        for game in tables.filter(status=Game.Status.WAITING).order_by("created_at"):
            if game.seats.filter(user=user).exists():
                continue
            try:
                seat_join(game_id=game.pk, user=user)
            except SeatUnavailable:  # it started (or closed) since we looked: the next one
                continue
            _wait_until(game.pk, wait, now)
            return Game.objects.get(pk=game.pk)
        for game in tables.filter(status=Game.Status.IN_PROGRESS, moves=0).order_by("pk"):
            if _take_a_bots_seat(game.pk, user):
                return Game.objects.get(pk=game.pk)
        return _open_table(user, target, clock, wait, now)


def _open_table(user, target: int, clock: int | None, wait: int | None, now) -> Game:
    game = game_create(creator=user, target=target, seat_kinds=["me", "open", "open"], clock=clock)
    game.from_queue = True
    game.queue_fill_at = now + timedelta(seconds=wait) if wait is not None else None
    game.save(update_fields=["from_queue", "queue_fill_at"])
    wait_for_people(game, now)
    return game


def _wait_until(game_id: int, wait: int | None, now: datetime) -> None:
    """A newcomer's own wait counts too: bots come when every person there is ready for
    them (the latest of their waits; never, if anyone chose people only)."""
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.WAITING or game.queue_fill_at is None:
        return  # started already, or someone there waits for people only
    fill_at = None if wait is None else max(game.queue_fill_at, now + timedelta(seconds=wait))
    if fill_at != game.queue_fill_at:
        Game.objects.filter(pk=game_id).update(queue_fill_at=fill_at)
        transaction.on_commit(partial(notify_table, game_id, -1))


def _take_a_bots_seat(game_id: int, user) -> bool:
    """Take the seat of a bot that is only holding it, if no card has been played yet."""
    game = locked_game(game_id)
    if game.status != Game.Status.IN_PROGRESS or game.moves:
        return False
    if Seat.objects.filter(game=game, user=user).exists():
        return False
    seat = Seat.objects.filter(game=game, placeholder=True).order_by("number").first()
    if seat is None:
        return False
    check_table_limits(user, opens_a_table=False)
    seat.user, seat.bot, seat.placeholder = user, "", False
    seat.save(update_fields=["user", "bot", "placeholder"])
    seats_dealt(game)  # with a person instead of a bot, maybe no bots any more
    reschedule(game)  # the seat to lead may have changed hands
    transaction.on_commit(partial(notify_table, game.pk, -1))
    return True


def _leave_other_queue_tables(user) -> None:
    """One search at a time: pressing again leaves a table still forming elsewhere."""
    forming = Game.objects.filter(
        from_queue=True, status=Game.Status.WAITING, seats__user=user
    ).values_list("pk", flat=True)
    for game_id in list(forming):
        seat_leave(game_id=game_id, user=user)
