"""Writes: every change to a game goes through these functions, each one transaction.

Moves lock the game row (``SELECT ... FOR UPDATE``) before reading anything they check, so two
simultaneous messages for one game (two tabs, two workers) are applied one after the other,
and the second is judged against the state the first left.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone
from django.utils.translation import gettext as _

from . import state_cache
from .engine import (
    CARD_CODES,
    GameState,
    IllegalPlay,
    NotYourTurn,
    SeatView,
    new_seed,
    parse_card,
)
from .engine.bots import Budget, make_bot
from .models import BotLevel, Game, Hand, Seat
from .move_rows import MoveResult, MoveRows, play_and_record
from .selectors import game_load, remember
from .signals import announce_game_over
from .thinking import SEARCH_BOTS

ME, OPEN = "me", "open"


class GameError(Exception):
    """A request about a game that cannot be honoured; the message is for the requester."""

    code = "game_error"


class GameNotFound(GameError):
    code = "not_found"


class NotSeated(GameError):
    code = "not_seated"


class GameNotRunning(GameError):
    code = "not_running"


class SeatUnavailable(GameError):
    code = "seat_unavailable"


def _locked_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends.

    A plain statement: building the ORM's ``select_for_update().get()`` cost more than the
    lookup itself, and every move starts here.
    """
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    if lock and not connection.in_atomic_block:  # as the ORM's select_for_update() refuses
        raise TransactionManagementError("Lock the game row inside a transaction.")
    sql = f"SELECT * FROM {Game._meta.db_table} WHERE id = %s{lock}"
    for game in Game.objects.raw(sql, [game_id]):
        return game
    raise GameNotFound(_("There is no such game."))


# -- creating and joining tables ------------------------------------------------------------


def game_create(
    *, creator, target: int, seat_kinds: list[str], is_public: bool = True, is_rated: bool = True
) -> Game:
    """Create a table; ``seat_kinds`` gives seats 0..2 as "me", "open" or a bot level.

    The game starts at once when no seat is left open.
    """
    if len(seat_kinds) != 3 or seat_kinds.count(ME) != 1:
        raise GameError(_("Choose three seats, one of them yours."))
    if any(kind not in (ME, OPEN, *BotLevel.values) for kind in seat_kinds):
        raise GameError(_("Unknown kind of seat."))
    if not (isinstance(target, int) and 1 <= target <= 99):
        raise GameError(_("The target score must be between 1 and 99."))
    with transaction.atomic():
        game = Game.objects.create(
            target=target,
            is_public=is_public,
            is_rated=is_rated,
            created_by=creator,
            seed=new_seed(),
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=number,
                user=creator if kind == ME else None,
                bot=kind if kind not in (ME, OPEN) else "",
            )
            for number, kind in enumerate(seat_kinds)
        )
        if OPEN not in seat_kinds:
            _start(game)
    return game


def game_quick_play(*, user, bot: str = BotLevel.HEURISTIC, target: int = 10) -> Game:
    """Start a game at once against two bots of level ``bot``."""
    return game_create(creator=user, target=target, seat_kinds=[ME, bot, bot], is_public=True)


def seat_join(
    *, game_id: int, user, seat_number: int | None = None, invite_token: str = ""
) -> Game:
    """Seat ``user`` at a waiting table (the first open seat unless one is named)."""
    with transaction.atomic():
        game = _locked_game(game_id)
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
            _start(game)
    return game


def seat_leave(*, game_id: int, user) -> Game:
    """Give up a seat before the game starts; the last person to leave closes the table."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.WAITING:
            raise SeatUnavailable(_("The game has started: seats can no longer be left."))
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotSeated(_("You have no seat at this table."))
        seat.user = None
        seat.save(update_fields=["user"])
        if not game.seats.filter(user__isnull=False).exists():
            game.status = Game.Status.ABANDONED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at", "updated_at"])
    return game


def _start(game: Game) -> None:
    state = GameState(game.target, seed=game.seed)
    Hand.objects.create(
        game=game,
        number=1,
        dealer=state.dealer,
        deck=[CARD_CODES[card] for card in state.current_hand.deck],
    )
    game.first_dealer = state.first_dealer
    game.to_play = state.to_play
    game.status = Game.Status.IN_PROGRESS
    game.started_at = timezone.now()
    game.save(update_fields=["first_dealer", "to_play", "status", "started_at", "updated_at"])


# -- playing --------------------------------------------------------------------------------


def card_play(*, game_id: int, user, card: object, bots_follow: bool = False) -> MoveResult:
    """Play ``card`` (a code such as "12O") for ``user``'s seat.

    With ``bots_follow`` the bots that are due next answer in the same transaction (search
    bots excepted: they think in another process), so a table whose bots do not pause costs
    one lock, one commit and one update for the person's move and the bots' replies.
    Return the last move played. Raise GameError or IllegalPlay with a message for the
    player; nothing changes then.
    """
    card = parse_card(card)  # only codes: an int would be taken as the engine's card number
    with transaction.atomic():
        game = _locked_game(game_id)
        require_running(game)
        loaded = game_load(game)
        seat = loaded.seat_of(user)
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if loaded.state.to_play != seat.number:
            due = loaded.seats[loaded.state.to_play]
            raise NotYourTurn(_("It is not your turn: %(name)s plays next.") % {"name": _name(due)})
        rows = MoveRows(loaded)
        result = play_and_record(rows, seat.number, card)
        if bots_follow:
            moves = result.moves
            answer = _play_due_bots(rows, limit=None, search_inline=False)
            if answer is not None:
                answer.played = answer.moves - moves + 1
                result = answer
        _write(rows)
        return result


def bot_play(*, game_id: int, expected_moves: int | None = None) -> MoveResult | None:
    """Let the bot whose turn it is play; return None if it is no bot's turn any more.

    ``expected_moves`` makes the call idempotent: several schedulers may ask for the same
    move, and only the first one finds the game as it expected.
    """
    return _bot_moves(game_id, expected_moves, limit=1)


def bots_play_pending(
    *, game_id: int, expected_moves: int | None = None, search_inline: bool = True
) -> MoveResult | None:
    """Play every bot move due until a person is to play or the game ends, in one transaction.

    With ``search_inline`` False it also stops before a search bot's turn, which the caller
    thinks out in another process (see ``bot_view`` and ``bot_play_card``). Return the last
    move played, or None if no bot was due (or ``expected_moves`` is stale).
    """
    return _bot_moves(game_id, expected_moves, limit=None, search_inline=search_inline)


def bot_view(*, game_id: int, expected_moves: int) -> tuple[str, str, SeatView] | None:
    """Return (level, seed, view) of the bot due after ``expected_moves`` plays, or None.

    Read without a lock: the move is applied later by ``bot_play_card``, which checks that
    the game has not moved meanwhile.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not game.is_running or game.moves != expected_moves:
        return None
    loaded = game_load(game)
    seat = loaded.seats[loaded.state.to_play]
    if not seat.is_bot:
        return None
    return seat.bot, _bot_seed(game), loaded.state.view_for(seat.number)


def bot_play_card(*, game_id: int, expected_moves: int, card: int) -> MoveResult | None:
    """Play ``card`` for the bot due after ``expected_moves`` plays; None if the game moved."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if not game.is_running or game.moves != expected_moves:
            return None
        loaded = game_load(game)
        seat = loaded.seats[loaded.state.to_play]
        if not seat.is_bot:
            return None
        rows = MoveRows(loaded)
        result = play_and_record(rows, seat.number, card)
        _write(rows)
        return result


def _bot_seed(game: Game) -> str:
    return f"{game.seed}/bot/{game.moves}"


def _bot_moves(
    game_id: int, expected_moves: int | None, limit: int | None, search_inline: bool = True
) -> MoveResult | None:
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.IN_PROGRESS:
            return None
        if expected_moves is not None and game.moves != expected_moves:
            return None
        rows = MoveRows(game_load(game))
        last = _play_due_bots(rows, limit, search_inline)
        if last is not None:
            _write(rows)
        return last


def _play_due_bots(rows: MoveRows, limit: int | None, search_inline: bool) -> MoveResult | None:
    """Play up to ``limit`` bot moves (all that are due if None); return the last one."""
    loaded = rows.loaded
    state, game, last = loaded.state, loaded.game, None
    while state.winner is None and (limit is None or limit > 0):
        seat = loaded.seats[state.to_play]
        if not seat.is_bot or (not search_inline and seat.bot in SEARCH_BOTS):
            break
        bot = make_bot(seat.bot, seed=_bot_seed(game))
        budget = Budget(seconds=settings.COINS_BOT_SECONDS)
        last = play_and_record(rows, seat.number, bot.choose(state.view_for(seat.number), budget))
        limit = None if limit is None else limit - 1
    return last


def bots_play_if_idle(*, game: Game) -> bool:
    """Play due bot moves if no socket seems to be doing it (for pages without JavaScript).

    A socket plays a bot's turn after ``COINS_BOT_PAUSE``; a game left untouched for twice
    that long has nobody driving its bots.
    """
    idle = (timezone.now() - game.updated_at).total_seconds()
    if not game.is_running or idle < 2 * settings.COINS_BOT_PAUSE:
        return False
    return bots_play_pending(game_id=game.pk, expected_moves=game.moves) is not None


def bots_play_until_human(*, game_id: int) -> int:
    """Play every pending bot move at once (for clients without a socket); return how many."""
    before = Game.objects.values_list("moves", flat=True).get(pk=game_id)
    last = bots_play_pending(game_id=game_id)
    return last.moves - before if last else 0


def _name(seat: Seat) -> str:
    from accounts.selectors import public_name

    return seat.bot_name if seat.is_bot else public_name(seat.user)


def require_running(game: Game) -> None:
    if game.status == Game.Status.WAITING:
        raise GameNotRunning(_("The game has not started yet."))
    if game.status != Game.Status.IN_PROGRESS:
        raise GameNotRunning(_("The game is over."))


def _write(rows: MoveRows) -> None:
    """Write the moves' rows, and cache the game as they leave it once they are committed."""
    rows.write()
    transaction.on_commit(partial(remember, rows.loaded))


def game_resign(*, game_id: int, user) -> Game:
    """Leave a running game for good: it ends, abandoned, and the leaver is rated last."""
    with transaction.atomic():
        game = _locked_game(game_id)
        require_running(game)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        game.abandoned_by = seat.number
        game.save(update_fields=["abandoned_by"])
    return game_abandon(game_id=game_id)


def game_abandon(*, game_id: int) -> Game:
    """Stop a game that cannot go on (staff action); it keeps its rows and is not resumed."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.is_over:
            raise GameNotRunning(_("The game is already over."))
        game.status = Game.Status.ABANDONED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at", "updated_at"])
        transaction.on_commit(partial(state_cache.drop, (game.pk, game.seed)))
        if game.was_dealt:
            announce_game_over(game.pk)
    return game


__all__ = [
    "GameError",
    "GameNotFound",
    "GameNotRunning",
    "IllegalPlay",
    "MoveResult",
    "NotSeated",
    "SeatUnavailable",
    "bot_play",
    "bots_play_until_human",
    "card_play",
    "game_abandon",
    "game_create",
    "game_quick_play",
    "game_resign",
    "seat_join",
    "seat_leave",
]
