"""The parts of the board drawn on every move, built in Python from the board's context:
its opening tag and header, the play area (the last hand's summary, the felt, the status,
the hint button), the viewer's hand and the resign form. The template engine spent more
time walking the board's tags than building its text; only a table waiting for players stays
in ``templates/games/table.html`` (a finished game's result: ``result_html``).

``tests/games/test_board_html.py`` checks the whole board against the template it replaced
(``tests/games/board_reference.html``) along whole games, for players and watchers, in every
language. As with ``{% translate %}``, translated words go in as they are; values are escaped.
"""

from __future__ import annotations

from common.urls import reverse_kept
from games.board.felt import escape, felt_html, kept_piece
from games.board.result_html import result_html
from games.board.words import get_language, gettext, in_board_language, ngettext, pgettext
from games.templatetags.cards import hand_buttons


@in_board_language
def dealt_board(context, signed_in: bool) -> str:
    """The whole board of a dealt game (every board a socket is sent but a waiting table's)
    straight from its parts: the template engine only walked the tags around them, and with
    a request it ran every context processor for each board. The same parts, in the same
    order and with the same whitespace between them as the template's ``board`` partial: a
    pushed board is the loaded page's, byte for byte. ``signed_in``: whether the viewer may
    start another game from a result."""
    played = felt_html(context["seats"], context["trick"], context.get("last_trick"))
    top, play, hand = board_top(context), board_play(context, played), board_hand(context)
    result = ""
    if context.get("result"):
        result = f"\n        {result_html(context, signed_in)}\n      "
    bottom = board_bottom(context)
    return f"{top}\n    \n      {play}\n      {result}\n      {hand}\n    \n    {bottom}\n  "


def board_top(context) -> str:
    """The board's opening tag and its header."""
    game = context["game"]
    hand_number = context.get("hand_number")
    your_turn = "true" if context.get("can_play") else "false"
    header_key = (
        "header",
        get_language(),
        game.target,
        hand_number,
        context.get("trick_number"),
        context.get("dealer_name"),
        context.get("clock"),
        str(context.get("clock_label", "")),
        context.get("watching"),
    )
    header = kept_piece(header_key, _header, header_key)
    return (
        f'<div id="board" class="board" data-moves="{escape(context["moves"])}"'
        f' data-hand="{escape(hand_number or 0)}" data-status="{escape(game.status)}"'
        f' data-your-turn="{your_turn}">\n{header}\n'
    )


def _header(key: tuple) -> str:
    _, _, target, hand_number, trick_number, dealer_name, clock, clock_label, watching = key
    first_to = gettext("First to <strong>%(target)s</strong> points wins") % {
        "target": escape(target)
    }
    where = ""
    if hand_number:
        hand = gettext("Hand %(hand)s · trick %(trick)s of 16") % {
            "hand": escape(hand_number),
            "trick": escape(trick_number),
        }
        dealt = gettext("%(name)s dealt") % {"name": escape(dealer_name)}
        where = f'<span>{hand}</span>\n<span class="dealt">{dealt}</span>\n'
    rule = gettext(
        "Each player plays after the player on their right: after you, the player on your left."
    )
    suits = " &gt; ".join(
        f'<span class="suit-{letter}">{pgettext("suit", name)}</span>'
        for letter, name in (
            ("C", "Cups"),
            ("O", "Coins"),
            ("E", "Swords"),
            ("B", "Clubs"),
            ("C", "Cups"),
        )
    )
    return (
        f'<header class="table-info">\n<span>{first_to}</span>\n{where}'
        f'<span class="clock-rule" data-clock="{escape(clock or 0)}">{escape(clock_label)}</span>\n'
        f'<span class="direction" title="{rule}"><span aria-hidden="true">↻</span>'
        f' <span class="direction-word">{gettext("clockwise")}</span></span>\n'
        f"{watching_html(watching)}\n"
        f'<span class="cycle" title="{gettext("Each suit beats the next one")}">{suits}</span>\n'
        "</header>"
    )


def watching_html(watching: int) -> str:
    """How many watch, as the template's ``watching`` partial draws it (in the board)."""
    count = ""
    if watching:
        count = ngettext("%(count)s watching", "%(count)s watching", watching) % {
            "count": escape(watching)
        }
    return f'<span id="watching" class="watching" data-watching="{escape(watching)}">{count}</span>'


def board_play(context, felt: str) -> str:
    """A dealt table's play area: the last hand's points, the felt, the status line, the
    notice to a person a bot replaced, and the hint button."""
    parts = []
    summary = context.get("hand_summary")
    if summary:
        over = gettext("Hand %(number)s is over:") % {"number": escape(summary["number"])}
        rows = " · ".join(
            f'<span data-hand-points-seat="{escape(row["seat"])}">{escape(row["name"])}'
            f" <strong>+{escape(row['points'])}</strong></span>"
            for row in summary["rows"]
        )
        parts.append(
            f'<p class="hand-summary" data-hand-summary="{escape(summary["number"])}">'
            f"{over} {rows}</p>"
        )
    parts.append(felt)
    parts.append(f'<p id="status" class="status">{escape(context.get("status_text", ""))}</p>')
    game = context["game"]
    if context.get("stood_in") and game.is_running:
        said = gettext(
            "You were away too long: a bot plays your seat for the rest of this game, and you "
            "are rated last."
        )
        parts.append(f'<p class="stood-in" role="alert">{said}</p>')
    if context.get("hints_allowed") and context.get("can_play"):
        parts.append(
            '<form class="hint-form" ws-send><input type="hidden" name="hint" value="1">'
            f'<button type="submit" class="secondary" data-action="hint">{gettext("Hint")}'
            "</button></form>"
        )
    return "\n".join(parts) + "\n"


def board_hand(context) -> str:
    """The viewer's hand (with the rules help on their turn), or the watcher's line."""
    if context.get("viewer_seat") is None:
        return f'<p class="spectating">{gettext("You are watching this game.")}</p>\n'
    can_play, game = context.get("can_play"), context["game"]
    parts = []
    if can_play:
        trick = context.get("trick") or {}
        if trick.get("cards") and not trick.get("complete"):
            legend = gettext(
                "✓ takes the trick · ✗ cannot take it · ? depends on the card still to come"
            )
        else:
            legend = gettext("You lead: any card can win; the next two cards decide.")
        parts.append(
            '<p class="rules-help-bar"><button type="button" class="secondary small"'
            ' data-action="rules-help" aria-pressed="false" aria-controls="hand">'
            f'{gettext("What would win?")}</button> <span class="rules-help-legend">{legend}'
            "</span></p>"
        )
    buttons = hand_buttons(context.get("hand"), can_play, game.is_running, context.get("stood_in"))
    parts.append(
        f'<section id="hand" class="hand{" can-play" if can_play else ""}"'
        f' aria-label="{gettext("Your hand")}" tabindex="-1">\n'
        f'<form method="post" action="{escape(context.get("play_url", ""))}" ws-send>'
        f'{context.get("csrf_input", "")}<input type="hidden" name="moves"'
        f' value="{escape(context["moves"])}">\n{buttons}\n</form>\n</section>'
    )
    return "\n".join(parts) + "\n"


def board_bottom(context) -> str:
    """The resign form of a seated player still playing, and the board's closing tag."""
    game = context["game"]
    form = ""
    if context.get("viewer_seat") is not None and game.is_running and not context.get("stood_in"):
        if game.is_rated:
            confirm = gettext(
                "Leave this game for good? It ends for everyone and you are rated last."
            )
        else:
            confirm = gettext("Leave this game for good? It ends for everyone.")
        form = (
            f'<form method="post" action="{escape(reverse_kept("game_resign", game.pk))}"'
            f' class="resign" data-confirm="{confirm}">{context.get("csrf_input", "")}'
            '<button type="submit" class="secondary" data-action="resign">'
            f"{gettext('Leave the game')}</button></form>\n"
        )
    return f"{form}</div>"
