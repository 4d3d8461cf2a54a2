"""The one owner of a table's progress.

Everything that moves a running table on comes through here, under the game's row lock and
checked against the game as the caller found it: a person's card (``play_card``), and what
the table's schedule says is due (``run_due``): a bot's card, a clock that ran out, a check
on a person who has not played for long. So do the ends of games (``end_game``, their one
home): the target reached, a resignation, a staff abandon, a table closed before its deal.

Each change also sets the table's schedule, ``Game.due_at`` (when the server next has
something to do there) in the same transaction, so the schedule is as durable as the moves:
any process's runner (``games/runner.py``) picks up what is due, even after the process that
made the move died. And each change tells the table's sockets once it commits, always.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Literal

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from coins_site.monitoring import moves_played
from games.engine import CARD_CODES, GameState, NotYourTurn, SeatView, TrickRecord, parse_card
from games.engine.bots import SEARCH_BOTS, make_bot
from games.history.player_records import seats_dealt, seats_settle
from games.models import BotLevel, Game, Hand, Presence, Seat
from games.realtime.presence import STALE_AFTER
from games.realtime.push import notify_table
from games.signals import game_over
from games.table import state_cache
from games.table.errors import (
    GameNotRunning,
    NotSeated,
    locked_game,
    move_count,
    moved_on,
    require_running,
)
from games.table.loading import LoadedGame, game_load, remember
from games.table.move_rows import MoveRows
from games.table.thinking import think_cap

IDLE_CHECK = timedelta(minutes=10)  # a table with no clock: how long before we look again
AUTO_LIMIT = 2  # cards the server plays in a row for an absent person before a bot sits in
STAND_IN = BotLevel.CAREFUL  # plays for absent people, as their clock runs out and after
SEARCH_LEASE = timedelta(seconds=2)  # a search bot's turn is claimed while it thinks: this
# plus twice its budget (waiting for a free worker included)


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


# -- starting -------------------------------------------------------------------------------


def start_game(game: Game) -> None:
    """Deal the first hand of a table whose seats are all filled, and schedule its first
    card (inside the caller's transaction, the game row locked)."""
    state = GameState(game.target, seed=game.seed)
    Hand.objects.create(
        game=game,
        number=1,
        dealer=state.dealer,
        deck=[CARD_CODES[card] for card in state.current_hand.deck],
    )
    now = timezone.now()
    game.first_dealer = state.first_dealer
    game.to_play = state.to_play
    game.status = Game.Status.IN_PROGRESS
    game.started_at = now
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    _schedule(game, seats[state.to_play], now)
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
) -> MoveResult:
    """Play ``card`` (a code such as "12O") for ``user``'s seat.

    When bots play without a pause (tests, the benchmark) the bots due next answer in the
    same transaction (search bots excepted: they think in another process), so the mover
    gets one board showing their card and the answers. ``skip_channel`` is the mover's own
    socket, which shows its board itself. ``after_moves`` is the move count of the board the
    card was chosen on: a card sent twice (a page that lost its connection sends it again)
    is played once. Raise GameError or IllegalPlay with a message for the player; nothing
    changes then.
    """
    card = parse_card(card)  # only codes: an int would be taken as the engine's card number
    after_moves = move_count(after_moves)
    with transaction.atomic():
        game = locked_game(game_id)
        require_running(game)
        loaded = game_load(game)
        seat = loaded.seat_of(user)
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if after_moves is not None and after_moves != game.moves:
            raise moved_on(game, seat.number, card, after_moves)
        if seat.stand_in:
            raise NotSeated(_("A bot plays your seat for the rest of this game: you were away."))
        if loaded.state.to_play != seat.number:
            due = loaded.seats[loaded.state.to_play]
            raise NotYourTurn(_("It is not your turn: %(name)s plays next.") % {"name": _name(due)})
        rows = MoveRows(loaded)
        result = play_and_record(rows, seat.number, card)
        if seat.auto_in_row:  # back in time: the seat is theirs again
            seat.auto_in_row = 0
            rows.seats_changed.add(seat.number)
        if not settings.COINS_BOT_PAUSE:
            result = _bots_follow(rows, result)
        _commit(rows, skip_channel)
        return result


def run_due(game_id: int, now: datetime | None = None) -> Literal[False] | Served | Thinking:
    """Do what the table's schedule says is due now: one bot card (all due bots without a
    pause), a card for a person whose clock ran out, a look at a person who has not played
    for ``IDLE_CHECK``, or the aftermath of a finished game (its rating). Return False if
    nothing was due (another process did it, or the game moved), a ``Thinking`` for a search
    bot, else what was ``Served``.
    """
    with transaction.atomic():
        game = locked_game(game_id)
        now = now or timezone.now()
        if game.due_at is None or game.due_at > now:
            return False
        if game.is_over:
            return _aftermath(game)
        if game.status == Game.Status.WAITING:
            return _fill_waiting(game, now)
        loaded = game_load(game)
        seat = loaded.seats[loaded.state.to_play]
        level = seat.bot or seat.stand_in
        if level in SEARCH_BOTS:
            lease = SEARCH_LEASE + 2 * think_cap(level)
            game.due_at = now + lease  # ours while it thinks; due again if we die
            Game.objects.filter(pk=game.pk).update(due_at=game.due_at)
            view = loaded.state.view_for(seat.number)
            return Thinking(game.pk, game.moves, level, _bot_seed(game), view)
        rows = MoveRows(loaded)
        if level:
            result = _bot_card(rows, seat, level)
            if not settings.COINS_BOT_PAUSE:
                _bots_follow(rows, result)
        elif game.turn_deadline is not None and game.turn_deadline <= now:
            _play_for_absent(rows, seat)
        else:
            return _look_at_idle(loaded, seat, now)
        _commit(rows)
        return Served(cards=len(rows.plays))


def play_thought(*, game_id: int, expected_moves: int, card: int) -> MoveResult | None:
    """Play a search bot's ``card``, thought out after ``expected_moves`` plays; None if the
    game moved meanwhile (another process played that turn)."""
    with transaction.atomic():
        game = locked_game(game_id)
        if not game.is_running or game.moves != expected_moves:
            return None
        loaded = game_load(game)
        seat = loaded.seats[loaded.state.to_play]
        if not (seat.bot or seat.stand_in):
            return None
        rows = MoveRows(loaded)
        result = play_and_record(rows, seat.number, card)
        _commit(rows)
        return result


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


def _look_at_idle(loaded: LoadedGame, seat: Seat, now: datetime) -> Served:
    """A person at a table with no clock has not played for ``IDLE_CHECK``. Still here
    (their page is open): look again later. Gone: with other people at the table, a bot
    takes the seat; alone with bots, the game is abandoned (and leaves the lobby)."""
    game = loaded.game
    fresh = now - STALE_AFTER
    present = Presence.objects.filter(game=game, user_id=seat.user_id, seen_at__gte=fresh)
    if present.exists():
        game.due_at = now + IDLE_CHECK
        Game.objects.filter(pk=game.pk).update(due_at=game.due_at)
        return Served()
    others = [s for s in loaded.seats if s.user_id and not s.stand_in and s.pk != seat.pk]
    if not others:
        end_game(game, Game.Status.ABANDONED, abandoned_by=seat.number)
        return Served()
    seat.stand_in = STAND_IN
    rows = MoveRows(loaded)
    rows.seats_changed.add(seat.number)
    _commit(rows)
    return Served()


def _aftermath(game: Game) -> Served:
    """A game that ended: those who listen (ratings) do their part inside this transaction,
    and only then is it off the schedule; if they fail, it stays due and is tried again."""
    game_over.send(sender=None, game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(due_at=None)
    transaction.on_commit(partial(notify_table, game.pk, -1))  # the ratings to show
    return Served()


def _fill_waiting(game: Game, now: datetime) -> Served:
    """A waiting table's check: people gone, and (at a queue table) bots for free seats."""
    from games.table.matchmaking import check_waiting

    check_waiting(game, now)
    return Served()


# -- scheduling and committing --------------------------------------------------------------


def _schedule(game: Game, seat: Seat, now: datetime, trick_just_won: bool = False) -> None:
    """When the table next needs the server, with ``seat`` to play. A bot that leads after
    a trick was won waits ``COINS_TRICK_PAUSE``: the finished trick stays in view."""
    if seat.bot or seat.stand_in:
        game.turn_deadline = None
        pause = settings.COINS_BOT_PAUSE
        if pause and trick_just_won:
            pause = max(pause, settings.COINS_TRICK_PAUSE)
        game.due_at = now + timedelta(seconds=pause)
    elif game.clock:
        game.turn_deadline = now + timedelta(seconds=game.clock)
        game.due_at = game.turn_deadline
    else:
        game.turn_deadline = None
        game.due_at = now + IDLE_CHECK


def _commit(rows: MoveRows, skip_channel: str = "") -> None:
    """Write the batch with the table's new schedule (or its end); once committed, cache
    the game as it leaves it and tell the table's sockets."""
    loaded = rows.loaded
    game, state = loaded.game, loaded.state
    now = timezone.now()
    game.updated_at = now
    if state.winner is not None:
        _mark_ended(game, Game.Status.FINISHED, now)
        game.winner_seat = state.winner
    else:
        trick_just_won = not state.trick and state.last_trick is not None
        _schedule(game, loaded.seats[state.to_play], now, trick_just_won)
    rows.write()
    if game.is_over:
        seats_settle(game, loaded.seats)
    transaction.on_commit(partial(remember, loaded))
    moves = game.moves if rows.plays else -1  # -1: a change that is not a card (a stand-in)
    transaction.on_commit(partial(notify_table, game.pk, moves, skip=skip_channel))


def _bot_seed(game: Game) -> str:
    return f"{game.seed}/bot/{game.moves}"


def _name(seat: Seat) -> str:
    from accounts.selectors import public_name

    return seat.bot_name if seat.is_bot else public_name(seat.user)


# -- ending ---------------------------------------------------------------------------------


def _mark_ended(game: Game, status: str, now: datetime) -> None:
    game.status = status
    game.finished_at = now
    game.turn_deadline = None
    game.due_at = now if game.was_dealt else None  # then the runner rates it
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


def resign(*, game_id: int, user) -> Game:
    """Leave a running game for good: it ends, abandoned, and the leaver is rated last."""
    with transaction.atomic():
        game = locked_game(game_id)
        require_running(game)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if seat.stand_in:  # the others play on with the bot: they are not made to stop
            raise NotSeated(_("A bot plays your seat for the rest of this game: you were away."))
        return end_game(game, Game.Status.ABANDONED, abandoned_by=seat.number)


def abandon(*, game_id: int) -> Game:
    """Stop a game that cannot go on (staff action); it keeps its rows and is not resumed."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.is_over:
            raise GameNotRunning(_("The game is already over."))
        return end_game(game, Game.Status.ABANDONED)
