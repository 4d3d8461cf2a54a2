"""A table's board for one viewer: the context every page load and every push renders from
(only the viewer's own seat view reaches it), and the request that stands for a socket's
viewer. The page and the socket render the same named partials of ``games/table.html``, so
there is one source of HTML for the board whether it arrives by page load or by push.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit

from django.contrib.auth.models import AnonymousUser
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware, get_token
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.board.board_html import dealt_board
from games.board.presenters import table_context
from games.board.rematch_panel import rematch_panel
from games.board.words import in_board_language
from games.models import Game
from games.realtime.presence import presence_of, seat_presence
from games.signals import asked, rating_changes_of
from games.table.invites import invite_of, policy_of
from games.table.loading import LoadedGame, game_load, seats_of


@in_board_language
def board_context(game: Game, viewer=None, loaded: LoadedGame | None = None) -> dict:
    """Return the table context for ``viewer`` (a user, or None for a spectator).

    Only the viewer's own seat view reaches the context.
    """
    if not game.was_dealt:
        seats = loaded.seats if loaded else seats_of(game)
        viewer_id = getattr(viewer, "pk", None)
        seat = next((s for s in seats if viewer_id and s.user_id == viewer_id), None)
        context = table_context(game, seats, None, seat.number if seat else None)
        context["viewer_is_seated"] = seat is not None
        return context
    loaded = loaded or game_load(game)
    seat = loaded.seat_of(viewer)
    view = loaded.state.view_for(seat.number if seat else None)
    context = table_context(game, loaded.seats, view)
    context["viewer_is_seated"] = seat is not None
    return context


def viewer_context(
    game: Game,
    request: HttpRequest,
    loaded: LoadedGame | None = None,
    presence: dict | None = None,
    just_ended: bool = False,
) -> dict:
    """The whole context of the table's board for the person behind ``request``.

    The page and every push use this, with a request: the page's own, or the one that
    stands for a socket's viewer (``socket_request``). So a pushed board is exactly what a
    page load would show that person: their seat, their buttons, forms with a CSRF token
    valid for their cookie, their invite.
    """
    context = board_context(game, request.user, loaded=loaded)
    # A socket keeps the table's presence as its pushes announce it; a page reads it.
    if presence is None:
        presence = presence_of(game.pk)
    states, context["watching"] = seat_presence(presence, context["seats"])
    for seat, state in zip(context["seats"], states, strict=True):
        seat["presence"] = state
    if context.get("result"):
        # ``just_ended``: by the card this board answers, in the transaction just committed.
        # Its rating and any rematch offer come later, each telling the table (a new board):
        # there is nothing to read yet, and the game's last card waited on both reads.
        if game.is_rated:
            _add_rating_changes(context["result"], None if just_ended else game.pk)
        context["rematch"] = rematch_panel(
            game, context["seats"], context["viewer_seat"], offered=not just_ended
        )
    policy = policy_kept(game, request)
    invite = invite_of(request, game, policy)
    table_url = game.get_absolute_url()
    context["invite"] = invite
    context["csrf_token"], context["csrf_input"] = csrf_of(request)
    context["table_url"] = f"{table_url}?invite={invite}" if invite else table_url
    context["invite_url"] = (
        request.build_absolute_uri(f"{table_url}?invite={game.invite_token}")
        if context["viewer_is_seated"] and not game.is_public and not policy.get("sealed")
        else ""
    )
    return context


def policy_kept(game: Game, request: HttpRequest) -> dict:
    """How a private ``game`` is kept (``policy_of``: other apps' answers, read from the
    database), kept on the viewer's request while the game is in progress. A socket renders
    its boards with one request, after its first board on its event loop, where nothing
    reads the database; an in-progress game's answers do not change (a duplicate's day
    opens its best results only to finished games)."""
    if game.status != Game.Status.IN_PROGRESS:
        return policy_of(game)
    kept = getattr(request, "_coins_policy", None)
    if kept is None or kept[0] != game.pk:
        kept = request._coins_policy = (game.pk, policy_of(game))
    return kept[1]


def csrf_of(request: HttpRequest) -> tuple[str, SafeString]:
    """The CSRF token for ``request``'s forms, and its hidden input: masked once per request.

    A socket's request (``socket_request``) renders every board the socket sends. Django
    masks the cookie's secret anew for each render, with 32 draws from the system's random
    source each time, twice a board; one masked token per socket is as valid, and as safe,
    as the one its page was loaded with."""
    kept = getattr(request, "_coins_csrf", None)
    if kept is None:
        token = get_token(request)
        kept = request._coins_csrf = (token, csrf_input_html(token))
    return kept


def csrf_input_html(token: str) -> SafeString:
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def _add_rating_changes(result: dict, game_id: int | None) -> None:
    """Put each player's rating change beside their result, once the game is rated (None:
    not yet, surely)."""
    changes = {} if game_id is None else asked(rating_changes_of, game_id=game_id)
    result["rating_pending"] = not changes
    for row in result["standings"]:
        row["rating"] = changes.get(row["seat"])


def socket_request(scope: dict, game_id: int) -> HttpRequest:
    """A request standing for a socket's viewer, as if they had just loaded the table page.

    Built from the WebSocket handshake (its headers, cookies, query string, user and
    session), so templates get the same ``user``, ``csrf_token`` and invite as the page's
    own request would give them. Built once per socket.
    """
    headers = list(scope.get("headers", []))
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    # The page's origin (checked against ALLOWED_HOSTS when the socket opened) is where the
    # person loaded the table: absolute links, like the invite link, are built from it.
    origin = urlsplit(dict(headers).get(b"origin", b"").decode("latin-1"))
    if origin.scheme in ("http", "https") and origin.netloc:
        scheme = origin.scheme
        headers = [(k, v) for k, v in headers if k != b"host"]
        headers.append((b"host", origin.netloc.encode("latin-1")))
    http_scope = {
        **scope,
        "type": "http",
        "method": "GET",
        "path": reverse("game_table", args=[game_id]),
        "scheme": scheme,
        "headers": headers,
    }
    request = ASGIRequest(http_scope, io.BytesIO())
    request.user = scope.get("user") or AnonymousUser()
    if "session" in scope:
        request.session = scope["session"]
    CsrfViewMiddleware(lambda request: None).process_request(request)  # the cookie's secret
    request.LANGUAGE_CODE = translation.get_language()
    return request


def render_board(context: dict, request: HttpRequest) -> str:
    """The board partial for one viewer. A dealt game is built by its Python parts alone
    (``dealt_board``); a waiting table goes through the template, with the viewer's request
    (context processors included)."""
    if context["game"].was_dealt:
        return dealt_board(context, request.user.is_authenticated)
    return render_to_string("games/table.html#board", context, request=request)


def render_message(text: str, level: str = "error", hint_card: str = "") -> str:
    """A message for one socket; a hint names its card, which the page then marks."""
    context = {"message": text, "level": level, "hint_card": hint_card}
    return render_to_string("games/table.html#message", context)
