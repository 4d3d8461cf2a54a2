"""A running table's moves: a person's card (``play_card``), and what the table's schedule
says is due (``run_due``): a bot's card, a clock that ran out, a check on a person who has
not played for long; a search bot's card once thought out (``play_thought``); resignations
and staff abandons.

Each is one ``locked_table`` block (``games/table/lifecycle.py``): the game row locked and
loaded, the move checked against the game as found and played, then the rows written with
the table's new schedule and the sockets told once it commits. The schedule makes the
moves durable: any process's runner picks up what is due, even after the process that made
the move died.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.selectors import is_bot_account, public_name
from coins_site.monitoring import moves_played
from games.engine import NotYourTurn, SeatView, TrickRecord, parse_card
from games.engine.bots import SEARCH_BOTS, make_bot
from games.models import Game, Presence, Seat
from games.realtime.presence import STALE_AFTER
from games.table.errors import (
    GameNotRunning,
    NotSeated,
    bot_account_refusal,
    move_count,
    moved_on,
    require_running,
)
from games.table.lifecycle import (
    IDLE_CHECK,
    Table,
    aftermath,
    check_again,
    check_waiting,
    end_game,
    lease_turn,
    locked_table,
)
from games.table.loading import LoadedGame
from games.table.move_rows import MoveRows
from games.table.options import STAND_IN
from games.table.thinking import think_cap
from games.table.unlocked import play_unlocked

AUTO_LIMIT = 2  # cards the server plays in a row for an absent person before a bot sits in


@dataclass(frozen=True)
class Served:
    """What ``run_due`` did: how many cards it played (0: a check, a stand-in, an end)."""

    cards: int = 0


@dataclass(frozen=True)
class Thinking:
    """A search bot is due: think (in another process), then ``play_thought``."""

    game_id: int
    moves: int
    level: str
    seed: str
    view: SeatView


# -- playing --------------------------------------------------------------------------------


@dataclass
class MoveResult:
    """A move that was applied, with what the caller needs to show it at once."""

    loaded: LoadedGame
    seat: int
    card: str
    trick: TrickRecord | None
    played: int = 1  # moves played by the call that returns this one (bots that followed too)

    @property
    def moves(self) -> int:
        return self.loaded.game.moves

    @property
    def bot_due(self) -> str | None:
        """The level of the bot to play next, or None (a person's turn, or the game is over)."""
        state = self.loaded.state
        if state.winner is not None or not self.loaded.game.is_running:
            return None
        return self.loaded.seats[state.to_play].bot or None


def play_and_record(rows: MoveRows, seat: int, card: object, auto: bool = False) -> MoveResult:
    """Play on the engine state (raising IllegalPlay before anything is noted), and note
    the rows that record the move (``auto``: played by the server for an absent person)."""
    state = rows.loaded.state
    hand_number, trick_number, order = state.hand_number, state.trick_number, len(state.trick)
    trick = state.play(seat, card)
    code = rows.record(seat, trick, hand_number, trick_number, order, auto)
    by = "auto" if auto else "bot" if (s := rows.loaded.seats[seat]).bot or s.stand_in else "person"
    transaction.on_commit(partial(moves_played, by))  # counted once the card is kept
    return MoveResult(rows.loaded, seat, code, trick)


def play_card(
    *,
    game_id: int,
    user,
    card: object,
    skip_channel: str = "",
    after_moves: int | str | None = None,
    by_program: bool = False,
    seed: str = "",
    shown_moves: int | None = None,
) -> MoveResult:
    """Play ``card`` (a code such as "12O") for ``user``'s seat.

    When bots play without a pause (tests, the benchmark) the bots due next answer in the
    same transaction (search bots excepted: they think in another process), so the mover
    gets one board showing their card and the answers. ``skip_channel`` is the mover's own
    socket, which shows its board itself. ``after_moves`` is the move count of the board the
    card was chosen on: a card sent twice (a page that lost its connection sends it again)
    is played once. ``by_program``: sent through the Bot API (the only way bot accounts
    play). With the game's ``seed`` (a socket knows it), the card is first tried on this
    process's copy of the game after ``after_moves`` (else ``shown_moves``, the socket's
    last board) in one statement (``games/table/unlocked.py``). Raise GameError or
    IllegalPlay with a message for the player; nothing changes then.
    """
    card = parse_card(card)  # only codes: an int would be taken as the engine's card number
    after_moves = move_count(after_moves)
    move = partial(
        person_card, user=user, card=card, after_moves=after_moves, by_program=by_program
    )
    if seed:
        guess = shown_moves if after_moves is None else after_moves
        result = play_unlocked(game_id, seed, guess, skip_channel, move)
        if result is not None:
            return result
    with locked_table(game_id, skip_channel) as table:
        return move(table)


def person_card(
    table: Table, *, user, card: int, after_moves: int | None, by_program: bool = False
) -> MoveResult:
    """The checks on a person's card and the card, with the bots' answers (locked or not)."""
    game, loaded = table.game, table.loaded
    require_running(game)
    seat = loaded.seat_of(user)
    if seat is None:
        raise NotSeated(_("You are not seated at this table."))
    if not by_program and is_bot_account(seat.user):  # its profile came with the seats
        raise bot_account_refusal()
    if after_moves is not None and after_moves != game.moves:
        raise moved_on(game, seat.number, card, after_moves)
    if seat.stand_in:
        raise NotSeated(_("A bot plays your seat for the rest of this game: you were away."))
    if loaded.state.to_play != seat.number:
        due = loaded.seats[loaded.state.to_play]
        raise NotYourTurn(_("It is not your turn: %(name)s plays next.") % {"name": _name(due)})
    result = play_and_record(table.rows, seat.number, card)
    if seat.auto_in_row:  # back in time: the seat is theirs again
        seat.auto_in_row = 0
        table.rows.seats_changed.add(seat.number)
    if not settings.COINS_BOT_PAUSE:
        result = _bots_follow(table.rows, result)
    return result


def run_due(
    game_id: int, now: datetime | None = None, locked: Game | None = None
) -> Literal[False] | Served | Thinking:
    """Do what the table's schedule says is due now: one bot card (all due bots without a
    pause), a card for a person whose clock ran out, a look at a person who has not played
    for ``IDLE_CHECK``, or the aftermath of a finished game (its rating). Return False if
    nothing was due (another process did it, or the game moved), a ``Thinking`` for a search
    bot, else what was ``Served``. ``locked``: the game's row as the caller's transaction
    locked it (``locked_table``).
    """
    with locked_table(game_id, locked=locked) as table:
        game = table.game
        now = now or timezone.now()
        if game.due_at is None or game.due_at > now:
            return False
        if game.is_over:
            aftermath(game)
            return Served()
        if game.status == Game.Status.WAITING:
            check_waiting(game, now)
            return Served()
        seat = table.loaded.seats[table.loaded.state.to_play]
        level = seat.bot or seat.stand_in
        if level in SEARCH_BOTS:
            lease_turn(game, think_cap(level), now)  # ours while it thinks
            view = table.loaded.state.view_for(seat.number)
            return Thinking(game.pk, game.moves, level, _bot_seed(game), view)
        if level:
            result = _bot_card(table.rows, seat, level)
            if not settings.COINS_BOT_PAUSE:
                _bots_follow(table.rows, result)
        elif game.turn_deadline is not None and game.turn_deadline <= now:
            _play_for_absent(table.rows, seat)
        else:
            _look_at_idle(table, seat, now)
            return Served()
        return Served(cards=len(table.rows.plays))


def play_thought(*, game_id: int, expected_moves: int, card: int) -> MoveResult | None:
    """Play a search bot's ``card``, thought out after ``expected_moves`` plays; None if the
    game moved meanwhile (another process played that turn)."""
    with locked_table(game_id) as table:
        game = table.game
        if not game.is_running or game.moves != expected_moves:
            return None
        seat = table.loaded.seats[table.loaded.state.to_play]
        if not (seat.bot or seat.stand_in):
            return None
        return play_and_record(table.rows, seat.number, card)


def _bot_card(rows: MoveRows, seat: Seat, level: str) -> MoveResult:
    state, game = rows.loaded.state, rows.loaded.game
    bot = make_bot(level, seed=_bot_seed(game))
    card = bot.choose(state.view_for(seat.number))
    return play_and_record(rows, seat.number, card)


def _bots_follow(rows: MoveRows, result: MoveResult) -> MoveResult:
    """Play every bot due now in the same batch (not search bots: they think elsewhere)."""
    loaded, played = rows.loaded, result.played
    while loaded.state.winner is None:
        seat = loaded.seats[loaded.state.to_play]
        level = seat.bot or seat.stand_in
        if not level or level in SEARCH_BOTS:
            break
        result = _bot_card(rows, seat, level)
        played += 1
    result.played = played
    return result


def _play_for_absent(rows: MoveRows, seat: Seat) -> None:
    """The person's clock ran out: the server plays the medium bot's card for them, marked
    as such; after ``AUTO_LIMIT`` in a row, a bot takes the seat for the rest of the game."""
    state, game = rows.loaded.state, rows.loaded.game
    bot = make_bot(STAND_IN, seed=_bot_seed(game))
    card = bot.choose(state.view_for(seat.number))
    play_and_record(rows, seat.number, card, auto=True)
    seat.auto_in_row += 1
    if seat.auto_in_row >= AUTO_LIMIT:
        seat.stand_in = STAND_IN
    rows.seats_changed.add(seat.number)


def _look_at_idle(table: Table, seat: Seat, now: datetime) -> None:
    """A person at a table with no clock has not played for ``IDLE_CHECK`` (a look set at
    an earlier turn, before that, only looks again once it is). Still here (their page is
    open): look again later. Gone: with other people at the table, a bot
    takes the seat; alone with bots, the game is abandoned (and leaves the lobby)."""
    game = table.game
    idle_from = game.updated_at + IDLE_CHECK  # the look was set at an earlier turn
    if idle_from > now:
        check_again(game, idle_from)
        return
    fresh = now - STALE_AFTER
    present = Presence.objects.filter(game=game, user_id=seat.user_id, seen_at__gte=fresh)
    if present.exists():
        check_again(game, now + IDLE_CHECK)
        return
    others = [s for s in table.loaded.seats if s.user_id and not s.stand_in and s.pk != seat.pk]
    if not others:
        end_game(game, Game.Status.ABANDONED, abandoned_by=seat.number)
        return
    seat.stand_in = STAND_IN
    table.rows.seats_changed.add(seat.number)


def _bot_seed(game: Game) -> str:
    return f"{game.seed}/bot/{game.moves}"


def _name(seat: Seat) -> str:
    return seat.bot_name if seat.is_bot else public_name(seat.user)


# -- leaving --------------------------------------------------------------------------------


def resign(*, game_id: int, user, by_program: bool = False) -> Game:
    """Leave a running game for good: it ends, abandoned, and the leaver is rated last
    (``by_program``: through the Bot API, as bot accounts must)."""
    with locked_table(game_id) as table:
        game = table.game
        require_running(game)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if not by_program and is_bot_account(user):
            raise bot_account_refusal()
        if seat.stand_in:  # the others play on with the bot: they are not made to stop
            raise NotSeated(_("A bot plays your seat for the rest of this game: you were away."))
        return end_game(game, Game.Status.ABANDONED, abandoned_by=seat.number)


def abandon(*, game_id: int) -> Game:
    """Stop a game that cannot go on (staff action); it keeps its rows and is not resumed."""
    with locked_table(game_id) as table:
        game = table.game
        if game.is_over:
            raise GameNotRunning(_("The game is already over."))
        return end_game(game, Game.Status.ABANDONED)
