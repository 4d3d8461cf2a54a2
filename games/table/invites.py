"""Invite links to private tables: who may see a table, and keeping a link someone followed.

A private table is seen by its seated players and by whoever holds its invite token. The
token arrives in the link (``?invite=``) or a form, and is remembered in the visitor's
session, so it survives signing up or logging in (Django keeps session data across both)
and a page that drops the query string.
"""

from __future__ import annotations

import secrets

from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _

from games.models import Game
from games.signals import asked, table_policy
from games.table.loading import game_row

SESSION_KEY = "coins_invites"
REMEMBERED = 20  # invites kept per session, newest last


def _offered(request: HttpRequest) -> str:
    token = request.GET.get("invite", "")
    if not token and request.method == "POST":
        token = request.POST.get("invite", "")
    return token


def _matches(token: str, game: Game) -> bool:
    return bool(token) and secrets.compare_digest(token, game.invite_token)


def policy_of(game: Game) -> dict:
    """What other apps ask of a private ``game`` (``games.signals.table_policy``); public
    games ask nothing."""
    return {} if game.is_public else asked(table_policy, game=game)


def invite_of(request: HttpRequest, game: Game, policy: dict | None = None) -> str:
    """The invite token of a private ``game`` if this visitor holds it, else "" (always ""
    at a sealed table: nobody is invited to it)."""
    if game.is_public:
        return ""
    if (policy_of(game) if policy is None else policy).get("sealed"):
        return ""
    offered = _offered(request)
    if _matches(offered, game):
        return offered
    session = getattr(request, "session", None)
    remembered = session.get(SESSION_KEY, {}).get(str(game.pk), "") if session is not None else ""
    return remembered if _matches(remembered, game) else ""


def remember_invite(request: HttpRequest, game: Game) -> None:
    """Keep a valid invite from the link in the visitor's session."""
    offered = _offered(request)
    session = getattr(request, "session", None)
    if game.is_public or session is None or not _matches(offered, game):
        return
    invites = dict(session.get(SESSION_KEY, {}))
    if invites.get(str(game.pk)) == offered:
        return
    invites.pop(str(game.pk), None)
    invites[str(game.pk)] = offered
    session[SESSION_KEY] = dict(list(invites.items())[-REMEMBERED:])


def may_view(request: HttpRequest, game: Game) -> bool:
    """Whether this visitor may see ``game``: public, opened by its app, invited, or seated
    at it."""
    if game.is_public:
        return True
    policy = policy_of(game)
    if policy.get("open") or invite_of(request, game, policy):
        return True
    user = request.user
    return user.is_authenticated and game.seats.filter(user=user).exists()


class HiddenTable(Exception):
    """A private table that this visitor may not see."""


def table_for(request: HttpRequest, game_id: int) -> Game:
    """The table ``game_id`` if this visitor may see it: the one access rule of pages and
    sockets. Raises ``Game.DoesNotExist`` if there is none, ``HiddenTable`` if it is private
    to others."""
    game = game_row(game_id)
    if game is None:
        raise Game.DoesNotExist
    if not may_view(request, game):
        raise HiddenTable
    return game


def table_page_game(request: HttpRequest, game_id: int) -> Game:
    """``table_for`` for pages: a missing and a hidden table are the same 404 (a page does
    not tell that a private table exists), and a followed invite link is remembered, so it
    survives signing up or logging in."""
    try:
        game = table_for(request, game_id)
    except (Game.DoesNotExist, HiddenTable):
        raise Http404(_("There is no such game.")) from None
    remember_invite(request, game)
    return game
