"""What the table's socket asks of the rest of the site: checks on what a page sends, who
is on the other end (language, address, tab), and the database work behind each message
(run in ``in_db_thread`` by ``games.realtime.consumers``)."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from urllib.parse import parse_qs

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.selectors import preferred_language
from common.metrics import counted
from common.once import RenderedOnce
from games.board.render import render_board, socket_request, viewer_context
from games.models import Game
from games.realtime.push import notices_kept
from games.realtime.socket_auth import read_user
from games.table import flow
from games.table.invites import HiddenTable, invite_of, table_for
from games.table.lifecycle import game_after_writers
from games.table.loading import LoadedGame, cached_game, game_load

MAX_MESSAGE_BYTES = 2048
TAB_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # tab, CR and LF may pass
CLOSE_NOT_FOUND = 4404  # no such table, or a private one: the same answer, as for pages


class Refusal:
    def __init__(self, message: str):
        self.message = message


def message_from(text_data, bytes_data) -> dict | Refusal:
    """The JSON object a socket message holds, or why the message is refused."""
    if bytes_data is not None or text_data is None:
        return Refusal(_("Send text messages only."))
    if len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return Refusal(_("That message is too large."))
    try:
        data = json.loads(text_data)
    except (ValueError, RecursionError):  # deeply nested input exhausts the parser's stack
        return Refusal(_("That message is not valid JSON."))
    if not isinstance(data, dict):
        return Refusal(_('Say which card to play, like {"card": "12O"}.'))
    headers = data.get("HEADERS", {})  # htmx's ws extension sends the request headers
    nested = any(isinstance(v, dict | list) for k, v in data.items() if k != "HEADERS")
    if (
        nested
        or not isinstance(headers, dict)
        or not all(isinstance(value, str | None) for value in headers.values())
    ):
        return Refusal(_('A message holds plain values only, like {"card": "12O"}.'))
    if any(isinstance(value, str) and CONTROL.search(value) for value in data.values()):
        return Refusal(_("A message may not hold control characters."))
    return data


def socket_language(user, scope) -> str:
    """The language of a socket's viewer, chosen as for their pages: the profile's choice,
    else what Django's ``LocaleMiddleware`` would pick from the cookie or the browser."""
    language = preferred_language(user) if user is not None else ""
    if language:
        return language
    headers = dict(scope.get("headers", []))
    handshake = SimpleNamespace(  # the parts of a request the locale lookup reads
        COOKIES=scope.get("cookies", {}),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(handshake)


def socket_opening(game_id: int, scope: dict) -> tuple[str, object, tuple]:
    """What an opening socket needs first, in one thread hop: its viewer (``read_user``),
    their language, the request its boards are rendered with (``socket_request``) and
    ``access``."""
    language = socket_language(read_user(scope), scope)
    with translation.override(language):
        request = socket_request(scope, game_id)
        return language, request, access(game_id, request)


def client_address(scope: dict) -> str | None:
    """The visitor's address (behind a trusted proxy, as coins_site.proxies set it)."""
    client = scope.get("client")
    return client[0] if client else None


def tab_of(scope: dict) -> str:
    """The page's tab id (``?tab=``, random per tab: static/js/table.js), or "" if none."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    tab = query.get("tab", [""])[0]
    return tab if TAB_ID.fullmatch(tab) else ""


def shown_chat(scope: dict) -> tuple[str, int] | None:
    """The chat the page shows as its socket opens (``?chat=<room>.<latest id>``, from the
    page: static/js/table.js), or None if it did not say (or said it wrongly)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    found = SHOWN_CHAT.fullmatch(query.get("chat", [""])[0])
    return (found.group(1), int(found.group(2))) if found else None


SHOWN_CHAT = re.compile(r"(players|spectators)\.(\d{1,18})")


def access(game_id: int, request) -> tuple[int | None, str, str]:
    """Return (None, seed, invite) if the viewer may watch this table (``invite``: the
    private table's token they hold, or ""), else (close code, "", "")."""
    try:
        game = table_for(request, game_id)
    except (Game.DoesNotExist, HiddenTable):
        return CLOSE_NOT_FOUND, "", ""
    return None, game.seed, invite_of(request, game)


def moves_and_status(game_id: int) -> tuple[int, str] | None:
    return Game.objects.filter(pk=game_id).values_list("moves", "status").first()


def render_for(
    game_id: int, seed: str, request, moves: int | None, presence: dict, first: bool = False
) -> tuple[str, int, str, bool, tuple]:
    """Render the board for the socket's viewer: from this process's cache when it has move
    ``moves``. Return it with the move count and status it shows, whether the viewer is
    seated (their chat room follows), and the presence it shows. A socket's ``first``
    board waits for a move under way (``game_after_writers``): that move may not have
    seen the socket's presence row, and then tells no one else."""
    with counted("push"):
        loaded = cached_game(game_id, seed, moves) if moves is not None and moves >= 0 else None
        if loaded:
            game = loaded.game
        else:
            game = game_after_writers(game_id) if first else Game.objects.get(pk=game_id)
        if loaded is None and game.is_running and request.user.is_authenticated:
            loaded = game_load(game)  # who sits where (the board's render needs it anyway)
        shared = spectator_board_key(game, request, loaded)
        if shared is None:
            return _render(game, request, loaded, presence)
        # the first of many watchers renders, the others wait for it
        board = _spectator_boards.get(shared, lambda: _render(game, request, loaded, presence))
        if moves == game.moves:  # the board of a move: later watchers need no thread
            _spectator_moves[(game.pk, moves, *shared[-2:])] = board
            while len(_spectator_moves) > SPECTATOR_BOARDS:
                _spectator_moves.pop(next(iter(_spectator_moves)), None)
        return board


def spectator_board_after(game_id: int, moves: int, invite: str) -> tuple | None:
    """The signed-out watchers' board after move ``moves`` in the active language, if this
    process has rendered it: a socket hearing of that move sends it on at once."""
    return _spectator_moves.get((game_id, moves, translation.get_language(), invite))


def _render(game: Game, request, loaded, presence: dict) -> tuple[str, int, str, bool, tuple]:
    context = viewer_context(game, request, loaded=loaded, presence=presence)
    seated = context["viewer_is_seated"]
    html = render_board(context, request)
    return html, game.moves, game.status, seated, shown_presence(context)


SPECTATOR_BOARDS = 64  # boards kept for signed-out watchers, the oldest dropped first
_spectator_boards = RenderedOnce(SPECTATOR_BOARDS)
_spectator_moves: dict[tuple, tuple] = {}  # (game, moves, language, invite) -> board


def spectator_board_key(game: Game, request, loaded: LoadedGame | None = None) -> tuple | None:
    """What a watcher's board of a running game depends on, or None for anyone else (a
    seated player, or a game not running). Such a board holds no form and no token of its
    viewer's, signed in or not, so every watcher with the same language and invite sees the
    same HTML: 500 watchers cost a render per move (per process), not 500, and a crowd
    arriving costs no render each. A signed-in viewer is a watcher if ``loaded`` (the game
    with its seats) seats them nowhere. Who is there is left out of the key: a board shows
    it as its first viewer read it, and the next presence frame (half a second later) brings
    every page to the latest reading."""
    if not game.is_running:
        return None
    if request.user.is_authenticated and (loaded is None or loaded.seat_of(request.user)):
        return None
    return (
        game.pk,
        game.moves,
        game.updated_at,
        game.turn_deadline,
        translation.get_language(),
        invite_of(request, game),
    )


def shown_presence(context: dict) -> tuple[list[str], int]:
    """What a board shows of who is there: each seat's state and the number watching."""
    return [seat["presence"] for seat in context["seats"]], context["watching"]


def play_and_render(
    game_id: int,
    request,
    card: str,
    channel: str,
    presence: dict,
    data: dict,
    seed: str = "",
    shown_moves: int | None = None,
) -> tuple[str, int, str, tuple, list]:
    """Play the card (and, without a bot pause, the bots' answers); return the board with
    the move count, status and presence it shows, and the notices for the table's other
    sockets (the socket sends them from its event loop, after its own board). ``seed``
    and ``shown_moves`` (the socket's last board): see ``flow.play_card``."""
    with counted("human") as box, notices_kept() as notices:
        result = flow.play_card(
            game_id=game_id,
            user=request.user,
            card=card,
            skip_channel=channel,
            after_moves=data.get("moves"),
            seed=seed,
            shown_moves=shown_moves,
        )
        box["moves"] = result.played
        game = result.loaded.game
        context = viewer_context(
            game, request, loaded=result.loaded, presence=presence, just_ended=game.is_over
        )  # a card was played: a game over now ended with it
        html = render_board(context, request)
        return html, result.moves, game.status, shown_presence(context), notices
