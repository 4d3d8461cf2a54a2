"""Find a game: a queue that seats people together by target and table speed.

The queue is made of tables: pressing "Find a game" seats the person at the oldest table of
the queue with the same options and a free seat, or opens one. Matching happens under the
lock of the options' ``MatchQueue`` row, so two people pressing at once, on any server
process, are served one after the other and sit at one table. The person chose how long to
wait for people before bots take the free seats (never, 30 s, 2 min); a person arriving
after that still takes a bot's seat, until the first card is played. Leaving the queue is
the table's Leave button, or closing the page: a queue table's runner check unseats anyone
whose page has been gone for ``GONE_AFTER``. (Tables made with /games/new/ get the same
check, with ``TABLE_GONE_AFTER``: a table whose people all left does not stay in the lobby.)
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.history.player_records import seats_dealt
from games.models import BotLevel, Game, MatchQueue, Presence, Seat
from games.realtime.presence import STALE_AFTER
from games.realtime.push import notify_table
from games.table.errors import GameError, SeatUnavailable, locked_game
from games.table.flow import end_game, start_game
from games.table.seats import TABLE_CHECK_EVERY, check_table_limits, lock_person, seat_join

TARGETS = (10, 15, 20)
CLOCKS = (10, 20, 30, 60)
DEFAULT_CLOCK = 30
WAITS = (None, 30, 120)  # seconds before bots fill the free seats; None: never
QUEUE_BOT = BotLevel.CAREFUL
GONE_AFTER = timedelta(seconds=12)  # a closed page (or a reload that never came back)
CHECK_EVERY = timedelta(seconds=5)  # how often a waiting queue table looks at its people
START_GRACE = timedelta(seconds=5)  # bots filled the seats: a last chance for a person
# A table made with /games/new/ waits for friends longer; a creator gone this long closes it.
TABLE_GONE_AFTER = timedelta(minutes=10)


class QueueRefused(GameError):
    code = "queue_refused"


def find_game(*, user, target: int, clock: int | None, wait: int | None) -> Game:
    """Seat ``user`` at a queue table with these options: a forming one, a just-started
    one whose bot they replace before the first card, or a new one. Return it."""
    if target not in TARGETS or clock not in CLOCKS or wait not in WAITS:
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
    from games.table.seats import game_create

    game = game_create(creator=user, target=target, seat_kinds=["me", "open", "open"], clock=clock)
    game.from_queue = True
    game.queue_fill_at = now + timedelta(seconds=wait) if wait is not None else None
    game.due_at = now + CHECK_EVERY
    game.save(update_fields=["from_queue", "queue_fill_at", "due_at"])
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
    _reschedule_first_card(game)
    transaction.on_commit(partial(notify_table, game.pk, -1))
    return True


def _reschedule_first_card(game: Game) -> None:
    """The seat to lead may have changed hands (a bot's to a person's): schedule again."""
    from games.table.flow import _schedule

    seats = list(Seat.objects.filter(game=game).order_by("number"))
    _schedule(game, seats[game.to_play], timezone.now())
    game.save(update_fields=["due_at", "turn_deadline", "updated_at"])


def _leave_other_queue_tables(user) -> None:
    """One search at a time: pressing again leaves a table still forming elsewhere."""
    from games.table.seats import seat_leave

    forming = Game.objects.filter(
        from_queue=True, status=Game.Status.WAITING, seats__user=user
    ).values_list("pk", flat=True)
    for game_id in list(forming):
        seat_leave(game_id=game_id, user=user)


def check_waiting(game: Game, now: datetime) -> None:
    """A waiting table's check (run by a runner, the game row locked): unseat people whose
    page is gone (a table with nobody left closes and leaves the lobby); at a queue table,
    once the wait is over, bots take the free seats and the game starts."""
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    gone_after = GONE_AFTER if game.from_queue else TABLE_GONE_AFTER
    _unseat_the_gone(game, seats, now, gone_after)
    if not any(seat.user_id is not None for seat in seats):
        end_game(game, Game.Status.ABANDONED)  # everyone left: the table closes
        return
    if game.from_queue and game.queue_fill_at is not None and game.queue_fill_at <= now:
        for seat in seats:
            if seat.is_empty:
                seat.bot, seat.placeholder = QUEUE_BOT, True
                seat.save(update_fields=["bot", "placeholder"])
        start_game(game)
        if seats[game.to_play].bot:  # a bot would lead at once: let a late person come
            game.due_at = now + START_GRACE
            game.save(update_fields=["due_at"])
    else:
        next_check = now + (CHECK_EVERY if game.from_queue else TABLE_CHECK_EVERY)
        if game.from_queue and game.queue_fill_at is not None:
            next_check = min(next_check, game.queue_fill_at)
        Game.objects.filter(pk=game.pk).update(due_at=next_check)
    transaction.on_commit(partial(notify_table, game.pk, -1))


def _unseat_the_gone(game: Game, seats: list[Seat], now: datetime, gone_after) -> None:
    """People whose page has been gone for ``gone_after`` (seen absent at every check
    since) leave the waiting table; a reload, or a page still loading, is back well before."""
    here = set(
        Presence.objects.filter(game=game, seen_at__gte=now - STALE_AFTER).values_list(
            "user_id", flat=True
        )
    )
    for seat in seats:
        if seat.user_id is None:
            continue
        if seat.user_id in here:
            if seat.away_since is not None:
                seat.away_since = None
                seat.save(update_fields=["away_since"])
        elif seat.away_since is None:
            seat.away_since = now
            seat.save(update_fields=["away_since"])
        elif seat.away_since <= now - gone_after:
            seat.user, seat.away_since = None, None
            seat.save(update_fields=["user", "away_since"])
