"""Creating tables and taking seats: every change before the first card, one transaction each.

Changes lock the game row (``SELECT ... FOR UPDATE``) before reading anything they check, so
two people taking the last seat at once are served one after the other, and the second is
judged against the table the first left. Dealing and ending are ``games.table.lifecycle``'s;
once a table runs, ``games.table.flow`` plays it.
"""

from __future__ import annotations

from functools import cache, partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_bot_account
from common.kept_rows import column, table_name
from games.bots import SEAT_BOTS
from games.engine import new_seed
from games.models import Game, Seat
from games.realtime.push import notify_table
from games.table.errors import (
    GameError,
    GameNotFound,
    GameNotRunning,
    NotSeated,
    SeatUnavailable,
    bot_account_refusal,
    require_running,
)
from games.table.lifecycle import (
    end_game,
    locked_game,
    start_game,
    start_new_game,
    wait_for_people,
)
from games.table.options import CLOCKS, QUICK_PLAY_BOT, TARGETS

ME, OPEN = "me", "open"


# -- creating and joining tables ------------------------------------------------------------


def game_create(
    *,
    creator,
    target: int,
    seat_kinds: list[str],
    is_public: bool = True,
    is_rated: bool = True,
    clock: int | None = None,
    seed: str | None = None,
    by_program: bool = False,
) -> Game:
    """Create a table; ``seat_kinds`` gives seats 0..2 as "me", "open" or a bot level, and
    ``clock`` the seconds each person has per card (None: no clock). ``seed`` deals the game
    (the same seed, the same decks and first dealer); by default a fresh secret one.

    The game starts at once when no seat is left open. ``by_program``: asked through the
    Bot API (bot accounts make tables only that way).
    """
    if len(seat_kinds) != 3 or seat_kinds.count(ME) != 1:
        raise GameError(_("Choose three seats, one of them yours."))
    if any(kind not in (ME, OPEN, *SEAT_BOTS) for kind in seat_kinds):
        raise GameError(_("Unknown kind of seat."))
    if not (isinstance(target, int) and target in TARGETS):
        raise GameError(_("The target score must be between 1 and 99."))
    if clock not in CLOCKS:
        raise GameError(_("Choose a clock from the list."))
    with transaction.atomic():
        check_table_limits(creator, opens_a_table=OPEN in seat_kinds, by_program=by_program)
        game = Game(
            target=target,
            is_public=is_public,
            is_rated=is_rated,
            created_by=creator,
            seed=seed or new_seed(),
            clock=clock,
        )
        seats = [
            Seat(
                number=number,
                user=creator if kind == ME else None,
                bot=kind if kind not in (ME, OPEN) else "",
            )
            for number, kind in enumerate(seat_kinds)
        ]
        if OPEN not in seat_kinds:
            return start_new_game(game, seats)
        game.save(force_insert=True)
        for seat in seats:
            seat.game = game
        Seat.objects.bulk_create(seats)
        wait_for_people(game, timezone.now())  # a runner looks in: a table everyone left closes
    return game


def game_create_for(
    *,
    people: list,
    bot: str | tuple[str, ...],
    target: int,
    clock: int | None = None,
    is_rated: bool = True,
    is_public: bool = False,
    seed: str | None = None,
) -> Game:
    """Create and start a table for ``people`` (one to three, seated in that order from seat
    0; a ``None`` among them is a bot's seat), with bots of level ``bot`` in the seats left:
    a table made for people by the site (a tournament's, a duplicate event's, the bot
    arena's), so nobody is its creator and the per-person table limits do not apply. A tuple
    ``bot`` gives each bot's seat its own bot, in seat order. ``seed`` deals it (a new one
    when not given). Inside the caller's transaction when there is one (the people's rows
    are locked)."""
    seated = [person for person in people if person is not None]
    if (
        not 1 <= len(seated) <= 3
        or len(people) > 3
        or len({person.pk for person in seated}) != len(seated)
    ):
        raise GameError(_("A table seats one to three different people."))
    by_seat = [*people, *[None] * (3 - len(people))]
    bots = list(bot) if isinstance(bot, tuple) else [bot] * by_seat.count(None)
    if len(bots) != by_seat.count(None) or any(level not in SEAT_BOTS for level in bots):
        raise GameError(_("Unknown kind of seat."))
    if not (isinstance(target, int) and target in TARGETS):
        raise GameError(_("The target score must be between 1 and 99."))
    if clock not in CLOCKS:
        raise GameError(_("Choose a clock from the list."))
    with transaction.atomic():
        for person in sorted(seated, key=lambda person: person.pk):  # one order: no deadlock
            lock_person(person)
        game = Game(
            target=target,
            is_public=is_public,
            is_rated=is_rated,
            seed=seed or new_seed(),
            clock=clock,
        )
        seats = [
            Seat(
                number=number,
                user=by_seat[number],
                bot="" if by_seat[number] is not None else bots.pop(0),
            )
            for number in range(3)
        ]
        return start_new_game(game, seats)


def lock_person(user) -> None:
    """Hold the person's row until the transaction ends, so that their requests to open or
    join tables are counted one after the other: 25 quick plays at once are 25 requests in
    turn, each judged against the tables the ones before it made. (FOR NO KEY UPDATE: rows
    that merely point at the person, a seat or their stats, are not held up by it.)"""
    with connection.cursor() as cursor:  # a statement written once: every table opened
        cursor.execute(_person_lock_statement(connection.vendor), [user.pk])
        cursor.fetchone()


@cache
def _person_lock_statement(vendor: str) -> str:
    features = connection.features
    lock = (
        " FOR NO KEY UPDATE"
        if features.has_select_for_no_key_update
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""  # SQLite: one writer at a time
    )
    user_model = get_user_model()
    key = column(user_model, "pk")
    return f"SELECT 1 FROM {table_name(user_model)} WHERE {key} = %s{lock}"


def _running_tables(user) -> int:
    """How many tables ``user`` sits at that are waiting or being played."""
    with connection.cursor() as cursor:
        cursor.execute(
            _running_statement(connection.vendor),
            [Game.Status.IN_PROGRESS, Game.Status.WAITING, user.pk],
        )
        return cursor.fetchone()[0]


@cache
def _running_statement(vendor: str) -> str:
    seats, games = table_name(Seat), table_name(Game)
    return (
        f"SELECT COUNT(*) FROM {seats} s INNER JOIN {games} g"
        f" ON g.{column(Game, 'pk')} = s.{column(Seat, 'game')}"
        f" WHERE g.{column(Game, 'status')} IN (%s, %s) AND s.{column(Seat, 'user')} = %s"
    )


def check_table_limits(user, *, opens_a_table: bool, by_program: bool = False) -> None:
    """Refuse a new table (or seat) past the per-person limits: games at once, and tables
    of theirs waiting for players. One account cannot fill the lobby or the servers.
    Inside the transaction that makes the table or takes the seat: it locks the person.
    A bot account takes seats only through the Bot API (``by_program``)."""
    if not transaction.get_connection().in_atomic_block:
        raise transaction.TransactionManagementError("Check table limits inside a transaction.")
    lock_person(user)
    if not by_program and is_bot_account(user):
        raise bot_account_refusal()
    playing = _running_tables(user)
    if playing >= settings.COINS_MAX_RUNNING_GAMES:
        raise GameError(
            _("You are at %(n)d tables already: finish or leave one before starting another.")
            % {"n": playing}
        )
    if opens_a_table:
        waiting = Game.objects.filter(created_by=user, status=Game.Status.WAITING).count()
        if waiting >= settings.COINS_MAX_WAITING_TABLES:
            raise GameError(
                _(
                    "You have %(n)d tables waiting for players: cancel one, or wait for "
                    "players, before opening another."
                )
                % {"n": waiting}
            )


def game_quick_play(*, user, bot: str = QUICK_PLAY_BOT, target: int = 10) -> Game:
    """Start a game at once against two bots of level ``bot``."""
    return game_create(creator=user, target=target, seat_kinds=[ME, bot, bot], is_public=True)


def seat_join(
    *, game_id: int, user, seat_number: int | None = None, invite_token: str = ""
) -> Game:
    """Seat ``user`` at a waiting table (the first open seat unless one is named)."""
    with transaction.atomic():
        check_table_limits(user, opens_a_table=False)
        game = locked_game(game_id)
        if game.status != Game.Status.WAITING:
            if not game.was_dealt:
                raise SeatUnavailable(
                    _("This table was closed before a card was dealt: it cannot be joined.")
                )
            raise SeatUnavailable(_("This game has already started: you can watch it instead."))
        if not game.is_public and invite_token != game.invite_token:
            raise SeatUnavailable(_("This is a private table: you need its invite link."))
        seats = list(game.seats.select_for_update().order_by("number"))
        if any(seat.user_id == user.pk for seat in seats):
            raise SeatUnavailable(_("You already have a seat at this table."))
        open_seats = [seat for seat in seats if seat.is_empty]
        if seat_number is not None:
            open_seats = [seat for seat in open_seats if seat.number == seat_number]
        if seat_number is not None and seat_number not in (0, 1, 2):
            raise SeatUnavailable(_("There is no such seat."))
        if not open_seats:
            raise SeatUnavailable(
                _("This table is full.") if seat_number is None else _("That seat is taken.")
            )
        seat = open_seats[0]
        seat.user = user
        seat.save(update_fields=["user"])
        if all(not s.is_empty for s in seats):
            start_game(game)
        transaction.on_commit(partial(notify_table, game.pk, -1))
    return game


def seat_leave(*, game_id: int, user) -> Game:
    """Give up a seat before the game starts; the last person to leave closes the table."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.status != Game.Status.WAITING:
            raise SeatUnavailable(_("The game has started: seats can no longer be left."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotSeated(_("You have no seat at this table."))
        seat.user = None
        seat.save(update_fields=["user"])
        if not game.seats.filter(user__isnull=False).exists():
            return end_game(game, Game.Status.ABANDONED)  # the last person closes the table
        transaction.on_commit(partial(notify_table, game.pk, -1))
    return game


__all__ = [
    "CLOCKS",
    "GameError",
    "GameNotFound",
    "GameNotRunning",
    "NotSeated",
    "SeatUnavailable",
    "game_create",
    "game_create_for",
    "game_quick_play",
    "require_running",
    "seat_join",
    "seat_leave",
]
