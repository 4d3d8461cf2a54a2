"""The API's limits per token and per account, counted atomically.

Moves a second and games a day are slots in the shared cache (``accounts.throttles.take``:
add-then-increment, so 50 requests at once never pass a limit of 5). Games at once are
counted in the database with the person's row and the token's row locked, inside the
transaction that makes the game. Past a limit: ApiError 429 with ``retry_after``. A cache
that is down lets moves and games through (the games-at-once limits still hold).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.throttles import give_back, take
from games.models import Game

from .http import ApiError
from .models import ApiGame, ApiToken

DAY = 86400
GAMES_DAY = "api_games_day"
AT_ONCE_RETRY = 60  # seconds: a game at once ends within minutes


def _take_both(kind: str, token: ApiToken, limits: tuple[int, int], refusal: ApiError) -> list:
    """Take a slot of ``kind`` for the token and for its account (``limits``, in that order);
    return the slots taken, or give them back and raise ``refusal`` past either limit."""
    taken = []
    for who, allowed in ((("token", token.pk), limits[0]), (("user", token.user_id), limits[1])):
        within = take(kind, who, allowed, refusal.retry_after)
        if within is False:
            for slot in [*taken, who]:
                give_back(kind, slot)
            raise refusal
        if within:
            taken.append(who)
    return taken


def take_move(token: ApiToken) -> None:
    """One move (a card, a resignation, a chat line) for the token and for its account."""
    refusal = ApiError(
        429, _("Too many moves at once: slow down."), retry_after=settings.COINS_API_MOVE_WINDOW
    )
    _take_both("api_moves", token, settings.COINS_API_MOVES, refusal)


def take_game_today(token: ApiToken) -> list:
    """One new game today for the token and for its account; return the slots taken (given
    back with ``give_back_games`` if the game is not made)."""
    refusal = ApiError(429, _("No more new games today for this token or account."), DAY)
    return _take_both(GAMES_DAY, token, settings.COINS_API_GAMES_PER_DAY, refusal)


def give_back_games(slots: list) -> None:
    for who in slots:
        give_back(GAMES_DAY, who)


def check_games_at_once(token: ApiToken) -> None:
    """Refuse a new game past the games at once of the token or the account. Inside the
    transaction that makes it, the person's row already locked; locks the token's row."""
    ApiToken.objects.select_for_update().filter(pk=token.pk).exists()
    playing = (Game.Status.IN_PROGRESS, Game.Status.WAITING)
    running = ApiGame.objects.filter(game__status__in=playing)
    per_token, per_account = settings.COINS_API_GAMES_AT_ONCE
    if (
        running.filter(token=token).count() >= per_token
        or running.filter(user_id=token.user_id).count() >= per_account
    ):
        raise ApiError(
            429,
            _("Too many games at once: finish one before opening another."),
            retry_after=AT_ONCE_RETRY,
        )


def take_challenge(*, user, token: ApiToken | None = None) -> None:
    """One challenge sent, for the token and for its account (from the site: the account's
    alone)."""
    refusal = ApiError(
        429,
        _("Too many challenges: wait before sending another."),
        retry_after=settings.COINS_API_CHALLENGE_WINDOW,
    )
    if token is not None:
        _take_both("api_challenges", token, settings.COINS_API_CHALLENGES, refusal)
        return
    per_account = settings.COINS_API_CHALLENGES[1]
    if take("api_challenges", ("user", user.pk), per_account, refusal.retry_after) is False:
        raise refusal
