"""What the API's requests do: each one service call of the site's own (``games.table``),
with the API's checks and limits around it. Refusals are ApiError with their status."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Profile
from games.board.refusals import refusal_text
from games.bots import LEVEL_BOTS
from games.engine import IllegalPlay, NotYourTurn, parse_card
from games.models import Game, Play, Seat
from games.realtime.push import announce_chat
from games.table import chat, flow
from games.table.errors import GameError, GameNotFound, GameNotRunning, NotSeated
from games.table.options import CLOCKS, TARGETS
from games.table.seats import ME, game_create, lock_person

from .http import ApiError
from .limits import check_games_at_once, give_back_games, take_game_today, take_move
from .models import ApiGame, ApiToken


def account_upgrade(*, user) -> None:
    """Make ``user`` a bot account, for good: only an account that never sat at a table
    (its person's row locked, so no table is made meanwhile)."""
    with transaction.atomic():
        lock_person(user)
        if Seat.objects.filter(user=user).exists():
            raise ApiError(400, _("Only an account that has never played can become a bot."))
        Profile.objects.update_or_create(user=user, defaults={"is_bot": True})


def table_options(data: dict) -> tuple[int, bool, int | None]:
    """``target``, ``rated`` and ``clock`` from a request's JSON, checked as the lobby
    checks them; ApiError 400 otherwise."""
    target = data.get("target", 10)
    if not (type(target) is int and target in TARGETS):
        raise ApiError(400, _("The target score must be between 1 and 99."))
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ApiError(400, _("rated is true or false."))
    clock = data.get("clock", "default")
    if clock == "default":
        clock = settings.COINS_API_DEFAULT_CLOCK
    if clock not in CLOCKS or isinstance(clock, bool):
        shown = ", ".join("null" if c is None else str(c) for c in CLOCKS)
        raise ApiError(400, _("clock is one of: %(clocks)s (seconds).") % {"clocks": shown})
    return target, rated, clock


def _game_options(data: dict) -> tuple[int, list[str], bool, int | None]:
    """``target``, ``opponents`` (two levels), ``rated`` and ``clock`` from a request's
    JSON; ApiError 400 otherwise."""
    target, rated, clock = table_options(data)
    opponents = data.get("opponents", ["medium", "medium"])
    if (
        not isinstance(opponents, list)
        or len(opponents) != 2
        or any(not isinstance(level, str) or level not in LEVEL_BOTS for level in opponents)
    ):
        raise ApiError(
            400, _("Give two opponents among: %(levels)s.") % {"levels": ", ".join(LEVEL_BOTS)}
        )
    return target, [LEVEL_BOTS[level] for level in opponents], rated, clock


def api_game_create(*, token: ApiToken, data: dict) -> Game:
    """Seat the token's bot account at seat 0 against two site bots; the game starts now."""
    target, bots, rated, clock = _game_options(data)
    slots = take_game_today(token)
    try:
        with transaction.atomic():
            lock_person(token.user)  # first, as every request to open a table does
            check_games_at_once(token)
            game = game_create(
                creator=token.user,
                target=target,
                seat_kinds=[ME, *bots],
                is_rated=rated,
                clock=clock,
                by_program=True,
            )
            ApiGame.objects.create(game=game, token=token, user=token.user)
    except GameError as refusal:
        give_back_games(slots)
        raise ApiError(400, str(refusal)) from None
    except ApiError:
        give_back_games(slots)
        raise
    return game


def _refused(error: Exception) -> ApiError:
    """The status of a refused move: 404 no game, 403 not seated, 409 not now (not its
    turn, or the game is not running), 400 a bad card."""
    if isinstance(error, GameNotFound):
        return ApiError(404, str(error))
    if isinstance(error, NotSeated):
        return ApiError(403, str(error))
    if isinstance(error, NotYourTurn | GameNotRunning):
        return ApiError(409, refusal_text(error))
    return ApiError(400, refusal_text(error))


def _played_already(game_id: int, user, card: str) -> int | None:
    """The game's move count if ``card`` is this seat's latest card and the seat is not to
    play now: the same card sent again for a move already made (applied once)."""
    game = Game.objects.filter(pk=game_id).first()
    seat = Seat.objects.filter(game_id=game_id, user=user).first()
    if game is None or seat is None or (game.to_play == seat.number and game.is_running):
        return None
    last = Play.objects.filter(game_id=game_id, seat=seat.number).order_by("-sequence").first()
    if last is None or last.card != card or last.auto:
        return None
    return game.moves


def api_card_play(*, token: ApiToken, game_id: int, card: str) -> int:
    """Play ``card`` for the token's seat; return the game's move count after it (bots
    that answer at once included)."""
    take_move(token)
    try:
        parse_card(card)
        return flow.play_card(game_id=game_id, user=token.user, card=card, by_program=True).moves
    except (GameError, IllegalPlay) as error:
        if not isinstance(error, GameNotFound | NotSeated):
            moves = _played_already(game_id, token.user, card)
            if moves is not None:
                return moves
        raise _refused(error) from None


def api_resign(*, token: ApiToken, game_id: int) -> None:
    take_move(token)
    try:
        flow.resign(game_id=game_id, user=token.user, by_program=True)
    except GameError as error:
        raise _refused(error) from None


def api_chat(*, token: ApiToken, game_id: int, text: object) -> None:
    """Say ``text`` at the table, in the players' room, as table chat does (its limits and
    its mutes apply)."""
    take_move(token)
    if not Seat.objects.filter(game_id=game_id, user=token.user).exists():
        if not Game.objects.filter(pk=game_id).exists():
            raise ApiError(404, _("There is no such game."))
        raise ApiError(403, _("You are not seated at this table."))
    try:
        said = chat.chat_post(game_id=game_id, user=token.user, text=text)
    except chat.ChatRefused as refusal:
        raise ApiError(400, str(refusal)) from None
    announce_chat(game_id, chat.message_data(said))
