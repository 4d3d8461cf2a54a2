"""A table's life and its schedule, in one place: dealing, ending, the checks on waiting
tables, and every write of ``Game.due_at`` (when the server next has something to do at the
table; the runners serve what is due, ``games/table/runner.py``).

Every change to a table starts with ``locked_table``: the game row locked in a transaction,
the game loaded as the rows say, and, when the change wrote moves or seats, the batch written
with the table's new schedule, the game cached and the table's sockets told once it commits.
A card play reads top to bottom in ``games/table/flow.py`` inside one such block.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_bot_account
from common.kept_rows import rows_insert
from games.engine import CARD_CODES, GameState
from games.history.player_records import seats_dealt, seats_dealt_unsaved, seats_settle
from games.models import Game, Hand, Presence, Seat
from games.realtime.presence import STALE_AFTER
from games.realtime.push import notify_table, programs_seen
from games.signals import game_over, turn_began
from games.table import alarm, state_cache
from games.table.errors import GameNotFound
from games.table.loading import LoadedGame, game_load, game_row, remember
from games.table.move_rows import MoveRows, NeedsLock
from games.table.options import QUEUE_BOT, SLOW_CLOCK

IDLE_CHECK = timedelta(minutes=10)  # a table with no clock: how long before we look again
TABLE_CHECK_EVERY = timedelta(minutes=1)  # a waiting table: how often a runner looks in
QUEUE_CHECK_EVERY = timedelta(seconds=5)  # a find-a-game table looks at its people this often
START_GRACE = timedelta(seconds=5)  # bots filled the seats: a last chance for a person
GONE_AFTER = timedelta(seconds=12)  # a closed page (or a reload that never came back)
TABLE_GONE_AFTER = timedelta(minutes=10)  # a table's creator gone this long closes it
SEARCH_LEASE = timedelta(seconds=2)  # a search bot's turn is claimed while it thinks: this
# plus twice its budget (waiting for a free worker included)
RETRY_AFTER = timedelta(seconds=30)  # a game whose due work failed waits this long


# -- the lock and the block every change is made in -----------------------------------------


def locked_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends.

    A plain statement and ``Model.from_db``: building the ORM's
    ``select_for_update().get()`` (or a raw queryset) cost more than the lookup itself, and
    every move starts here.
    """
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of ``connection`` looks it up again
    lock = " FOR UPDATE" if db.features.has_select_for_update else ""
    if lock and not db.in_atomic_block:  # as the ORM's select_for_update() refuses
        raise TransactionManagementError("Lock the game row inside a transaction.")
    return _game_row(db, game_id, lock)


def game_after_writers(game_id: int) -> Game:
    """The game row once any change under way at the table has committed (a socket's first
    board). On PostgreSQL the read waits for a move's lock (``FOR KEY SHARE`` conflicts
    with ``locked_game``'s ``FOR UPDATE`` only, so openers do not wait for each other): a
    move that did not see this socket's presence row (``MoveRows.write``) broadcasts
    nothing, and this read shows it instead. Elsewhere one thread runs every database
    call, so no move can be under way. One statement, in a transaction of its own: the
    read needs only the wait, so no ``BEGIN`` and ``COMMIT`` round trips around it."""
    db = connections[DEFAULT_DB_ALIAS]
    if not db.features.has_select_for_update:
        return _game_row(db, game_id, "")
    return _game_row(db, game_id, " FOR KEY SHARE")


def _game_row(db, game_id: int, lock: str) -> Game:
    game = game_row(game_id, lock, db)
    if game is None:
        raise GameNotFound(_("There is no such game."))
    return game


class Table:
    """A game locked for a change: its row, and (loaded when first asked for) the game as the
    rows say and the rows the change writes."""

    def __init__(
        self,
        game: Game,
        skip_channel: str = "",
        loaded: LoadedGame | None = None,
        guard: tuple | None = None,
    ):
        self.game = game
        self.skip_channel = skip_channel  # the mover's socket, which shows its board itself
        self._loaded = loaded
        self._rows: MoveRows | None = None
        # (moves, updated_at) of a cached game played on without the row's lock: the write
        # checks the row still says so (``games/table/unlocked.py``)
        self.guard = guard

    @property
    def loaded(self) -> LoadedGame:
        if self._loaded is None:
            self._loaded = game_load(self.game)
        return self._loaded

    @property
    def rows(self) -> MoveRows:
        if self._rows is None:
            self._rows = MoveRows(self.loaded)
        return self._rows

    def finish(self) -> None:
        """Write what the change noted (moves, seats) with the table's new schedule."""
        rows = self._rows
        if rows is not None and (rows.plays or rows.seats_changed):
            commit(rows, self.skip_channel, self.guard)


@contextmanager
def locked_table(
    game_id: int, skip_channel: str = "", locked: Game | None = None
) -> Iterator[Table]:
    """``with locked_table(game_id) as table:`` lock, load, change, write, tell. An exception
    inside leaves the table as it was.

    ``locked``: the game row as the caller's transaction locked it (a runner's claim): not
    read again, and no savepoint of its own (two round trips): an exception inside rolls
    the caller's whole transaction back."""
    with transaction.atomic(savepoint=locked is None):
        table = Table(locked or locked_game(game_id), skip_channel)
        yield table
        table.finish()


# -- dealing and scheduling -----------------------------------------------------------------


def start_game(game: Game) -> None:
    """Deal the first hand of a table whose seats are all filled, and schedule its first
    card (inside the caller's transaction, the game row locked)."""
    state = GameState(game.target, seed=game.seed)
    _first_hand(game, state).save(force_insert=True)
    now = timezone.now()
    _dealt(game, state, now)
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    schedule(game, seats[state.to_play], now)
    seats_dealt(game)
    game.save(
        update_fields=[
            "first_dealer",
            "to_play",
            "status",
            "started_at",
            "due_at",
            "turn_deadline",
            "updated_at",
        ]
    )


def start_new_game(game: Game, seats: list[Seat]) -> Game:
    """Write a new table (``game`` and its three ``seats``, all filled, none saved yet)
    dealt and scheduled: three inserts, with what ``start_game`` and ``seats_dealt`` would
    write. Saving it first and dealing it then read and updated the rows five times more,
    in every quick play."""
    state = GameState(game.target, seed=game.seed)
    now = timezone.now()
    _dealt(game, state, now)
    seats_dealt_unsaved(game, seats)
    to_play = seats[state.to_play]
    schedule(game, to_play, now, announce=False)  # the turn is announced once it is saved
    rows_insert([game])  # statements written once: every quick play writes these three
    for seat in seats:
        seat.game = game
    rows_insert(seats)
    rows_insert([_first_hand(game, state)])
    announce_turn(game, to_play)
    return game


def _first_hand(game: Game, state: GameState) -> Hand:
    deck = [CARD_CODES[card] for card in state.current_hand.deck]
    return Hand(game=game, number=1, dealer=state.dealer, deck=deck)


def _dealt(game: Game, state: GameState, now: datetime) -> None:
    game.first_dealer = state.first_dealer
    game.to_play = state.to_play
    game.status = Game.Status.IN_PROGRESS
    game.started_at = now


# Each person's "pause after a trick" (``Profile.trick_pause``), as a share of
# ``COINS_TRICK_PAUSE``.
TRICK_PAUSE_SHARES = {"fast": 0.4, "normal": 1.0, "slow": 2.0}


def trick_pause(seats: list[Seat]) -> float:
    """Seconds a bot waits before leading after a trick was won: the slowest choice of the
    people seated (everyone sees who took the trick), ``COINS_TRICK_PAUSE`` without one."""
    shares = [
        TRICK_PAUSE_SHARES.get(getattr(seat.user.profile, "trick_pause", "normal"), 1.0)
        for seat in seats
        if seat.user_id and not seat.stand_in and hasattr(seat.user, "profile")
    ]
    return settings.COINS_TRICK_PAUSE * max(shares, default=1.0)


def schedule(
    game: Game,
    seat: Seat,
    now: datetime,
    trick_just_won: bool = False,
    seats=(),
    announce: bool = True,
) -> None:
    """When the table next needs the server, with ``seat`` to play (the caller saves the
    row). A bot that leads after a trick was won waits the trick pause of the people at
    ``seats``: the finished trick stays in view. ``announce``: a person's turn on a slow
    clock is noted now (``announce_turn``; else the caller does it)."""
    if seat.bot or seat.stand_in:
        game.turn_deadline = None
        pause = settings.COINS_BOT_PAUSE
        if pause and trick_just_won:
            pause = max(pause, trick_pause(list(seats)))
        game.due_at = now + timedelta(seconds=pause)
    elif game.clock:
        game.turn_deadline = now + timedelta(seconds=game.clock)
        game.due_at = game.turn_deadline
        if announce:
            announce_turn(game, seat)
    else:
        game.turn_deadline = None
        if not idle_check_pending(game, now):
            game.due_at = now + IDLE_CHECK
    transaction.on_commit(partial(alarm.wake_for, game.due_at))  # a runner asleep past it


def idle_check_pending(game: Game, now: datetime) -> bool:
    """Whether the table holds an idle check set at a person's earlier turn, at most half of
    ``IDLE_CHECK`` ago: a person's next turn then leaves it where it is. ``due_at`` is
    indexed, so a card that moved it could never be a HOT update of the game row (every
    index of the table took a new entry with every card); a look that comes before the
    person's ten minutes are up looks again then (``flow._look_at_idle``). Anything due
    sooner is not such a check (a bot's pause, a search bot's lease, a waiting table's look)
    and neither is anything at a game not yet under way."""
    pending = game.due_at is not None and now + IDLE_CHECK / 2 < game.due_at <= now + IDLE_CHECK
    return bool(game.moves) and pending


def announce_turn(game: Game, seat: Seat) -> None:
    """A person's turn on a slow clock begins: those who listen note it (notifications: a
    reminder if they stay away)."""
    if game.clock and game.clock >= SLOW_CLOCK and seat.user_id and not (seat.bot or seat.stand_in):
        turn_began.send(sender=None, game=game, seat=seat)


def reschedule(game: Game) -> None:
    """Schedule the next card again: the seat to play changed hands (a person took a bot's
    seat before the first card)."""
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    schedule(game, seats[game.to_play], timezone.now())
    game.save(update_fields=["due_at", "turn_deadline", "updated_at"])


def check_again(game: Game, at: datetime) -> None:
    """Nothing to do at the table now: a runner looks again ``at``."""
    game.due_at = at
    Game.objects.filter(pk=game.pk).update(due_at=at)
    transaction.on_commit(partial(alarm.wake_for, at))  # this process's runner naps till then


def lease_turn(game: Game, think_cap: timedelta, now: datetime) -> None:
    """A search bot thinks about its card elsewhere: its turn is this process's for a lease
    (``SEARCH_LEASE`` plus twice its thinking cap), due again for another runner if we die."""
    check_again(game, now + SEARCH_LEASE + 2 * think_cap)


def retry_later(game_id: int) -> None:
    """A game whose due work failed: a runner tries again in ``RETRY_AFTER``."""
    again = timezone.now() + RETRY_AFTER
    Game.objects.filter(pk=game_id).update(due_at=again)
    transaction.on_commit(partial(alarm.wake_for, again))


def commit(rows: MoveRows, skip_channel: str = "", guard: tuple | None = None) -> None:
    """Write the batch with the table's new schedule (or its end); once committed, cache
    the game as it leaves it and tell the table's sockets. ``guard``: the batch of a game
    played on without the row's lock, refused (``NeedsLock``) where writing it would take
    more than its one statement: a seat's change, a slow clock's notice. A game won by the
    batch is settled in it on PostgreSQL (``rows.settled``), else by ``seats_settle``."""
    loaded = rows.loaded
    game, state = loaded.game, loaded.state
    if guard is not None and (rows.seats_changed or (game.clock or 0) >= SLOW_CLOCK):
        raise NeedsLock("more than one statement")
    now = timezone.now()
    game.updated_at = now
    if state.winner is not None:
        _mark_ended(game, Game.Status.FINISHED, now)
        game.winner_seat = state.winner
    else:
        trick_just_won = not state.trick and state.last_trick is not None
        schedule(game, loaded.seats[state.to_play], now, trick_just_won, loaded.seats)
    rows.write(skip_channel, guard)
    if game.is_over and not rows.settled:
        seats_settle(game, loaded.seats)
    transaction.on_commit(partial(remember, loaded))
    moves = game.moves if rows.plays else -1  # -1: a change that is not a card (a stand-in)
    programs_seen(game.pk, any(s.user_id and is_bot_account(s.user) for s in loaded.seats))
    transaction.on_commit(partial(_tell_table, rows, moves, skip_channel))


def _tell_table(rows: MoveRows, moves: int, skip_channel: str) -> None:
    """Once the batch is kept: tell the table, with whether anyone else is there as the
    batch's statement found it (read now: a batch sent by its caller has just returned)."""
    game_id = rows.loaded.game.pk
    notify_table(game_id, moves, skip=skip_channel, others=rows.others_present)


# -- ending ---------------------------------------------------------------------------------


def _mark_ended(game: Game, status: str, now: datetime) -> None:
    game.status = status
    game.finished_at = now
    game.turn_deadline = None
    game.due_at = now if game.was_dealt else None  # then a runner rates it
    transaction.on_commit(partial(alarm.wake_for, game.due_at))
    transaction.on_commit(partial(state_cache.drop, (game.pk, game.seed)))


def end_game(game: Game, status: str, abandoned_by: int | None = None) -> Game:
    """End ``game`` (locked by the caller) other than by a card: abandoned, resigned (then
    ``abandoned_by`` is the leaver's seat) or closed before its deal. The one place besides
    the winning card where a game ends; the table is told once it commits."""
    now = timezone.now()
    game.abandoned_by = abandoned_by
    _mark_ended(game, status, now)
    ended = ["status", "finished_at", "abandoned_by", "turn_deadline", "due_at", "updated_at"]
    game.save(update_fields=ended)
    seats_settle(game)
    transaction.on_commit(partial(notify_table, game.pk, -1))
    return game


def aftermath(game: Game) -> None:
    """A game that ended: those who listen (ratings) do their part inside this transaction,
    and only then is it off the schedule; if they fail, it stays due and is tried again.
    They get the game's row as it was locked (``game``), so none needs to read it again.
    The table hears nothing from here: its last card showed the end, and the ratings are
    shown when a ratings lane has rated the game (``ratings.queue``, which tells it)."""
    game_over.send(sender=None, game_id=game.pk, game=game)
    Game.objects.filter(pk=game.pk).update(due_at=None)


# -- waiting tables -------------------------------------------------------------------------


def wait_for_people(game: Game, now: datetime) -> None:
    """A new table with open seats: a runner looks in now and then (a find-a-game table
    often), so that a table everyone left closes."""
    check_again(game, now + (QUEUE_CHECK_EVERY if game.from_queue else TABLE_CHECK_EVERY))


def check_waiting(game: Game, now: datetime) -> None:
    """A waiting table's check (run by a runner, the game row locked): unseat people whose
    page is gone (a table with nobody left closes and leaves the lobby); at a find-a-game
    table, once the wait is over, bots take the free seats and the game starts."""
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
            check_again(game, now + START_GRACE)
    else:
        next_check = now + (QUEUE_CHECK_EVERY if game.from_queue else TABLE_CHECK_EVERY)
        if game.from_queue and game.queue_fill_at is not None:
            next_check = min(next_check, game.queue_fill_at)
        check_again(game, next_check)
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
