"""The felt of a dealt table (the seats, the cards on the table, the last trick), built in
Python: it changes on every move, so the template engine drew it on every board, and it
was half of a board's time. Each piece (a seat's name, its facts, a played card, the last
trick) is built once per language and values, then reused.

``tests/games/test_board_html.py`` checks it against the template it replaced, along whole
games, for players and watchers, in every language (whitespace between tags aside: a run of it is
one space or newline here). Translated words are put in as they are, as the template's
``{% translate %}`` did; every value is escaped.
"""

from __future__ import annotations

from html import escape as html_escape

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from games.board.words import get_language, gettext, ngettext
from games.templatetags.cards import card_face


def escape(value) -> str:
    """Django's ``escape`` (the same characters out) without its look for lazy arguments,
    which cost more than the escaping on the board's dozens of values a move."""
    return html_escape(str(value))


KEPT = 20_000  # pieces kept (a seat's is under 1 kB)
_kept: dict[tuple, str] = {}


def felt_html(seats: list[dict], trick: dict, last_trick: dict | None) -> SafeString:
    """The ``<div class="felt">`` of the board, from the table context's seats, trick and
    last trick (``games/board/presenters.py``)."""
    language = get_language() or ""
    parts = ['<div class="felt">\n']
    for seat in seats:
        turn = " is-turn" if seat["is_turn"] else ""
        won = " is-winner" if seat["is_winner"] else ""
        parts.append(
            f'<div class="seat pos-{seat["position"]}{turn}{won}" data-seat="{seat["number"]}">\n'
        )
        parts.append(_piece(_seat_name, language, seat, NAME_KEYS))
        parts.append("\n")
        parts.append(_piece(_seat_facts, language, seat, FACT_KEYS))
        parts.append("\n</div>\n")
    parts.append(_trick(trick, last_trick, language))
    if last_trick and not trick["complete"]:
        parts.append(kept_piece(_last_key(last_trick, language), _last, last_trick))
    parts.append("\n</div>")
    return mark_safe("".join(parts))


NAME_KEYS = ("number", "username", "name", "is_you", "is_bot", "bot_label", "presence")
FACT_KEYS = (
    "number",
    "score",
    "cards_left",
    "is_dealer",
    "is_turn",
    "deadline",
    "seconds_left",
    "stand_in",
)
CARD_KEYS = ("position", "is_winner", "code", "seat", "player", "name", "is_lead")


def _piece(build, language: str, values: dict, keys: tuple[str, ...]) -> str:
    key = (build.__name__, language, *(values.get(name) for name in keys))
    return kept_piece(key, build, values)


def kept_piece(key: tuple, build, values) -> str:
    piece = _kept.get(key)
    if piece is None:
        piece = build(values)
        if len(_kept) >= KEPT:
            _kept.pop(next(iter(_kept)), None)  # the oldest first
        _kept[key] = piece
    return piece


def _last_key(last_trick: dict, language: str) -> tuple:
    """What the last trick's piece shows: its number, result and sentence, and each card
    with its player and whether it won (a card's name and face follow from its code and the
    language). Read field by field: freezing the whole dict was 2% of a move's time."""
    cards = tuple((card["code"], card["player"], card["is_winner"]) for card in last_trick["cards"])
    facts = (last_trick["number"], last_trick["points"], last_trick["winner_name"])
    return ("last", language, *facts, last_trick["why"], cards)


def _seat_name(seat: dict) -> str:
    name = escape(seat["name"])
    if seat["username"]:
        url = escape(reverse("player_profile", args=[seat["username"]]))
        name = f'<a href="{url}">{name}</a>'
    you = f' <span class="badge">{gettext("you")}</span>' if seat["is_you"] else ""
    bot = f' <span class="badge">{escape(seat["bot_label"])}</span>' if seat["is_bot"] else ""
    return f'<div class="seat-name">{name}{you}{bot}{presence_html(seat)}</div>'


def presence_html(seat: dict) -> str:
    """The seat's presence slot, as the template's ``presence`` partial draws it."""
    state, number = seat.get("presence"), seat["number"]
    mark = ""
    if state in ("here", "away"):
        words = gettext("connected") if state == "here" else gettext("disconnected")
        mark = (
            f' <span class="presence {state}" data-presence-seat="{number}"'
            f' data-presence="{state}">{words}</span>'
        )
    return f'<span id="presence-{number}" class="presence-slot">{mark}</span>'


def _seat_facts(seat: dict) -> str:
    number, points = seat["number"], gettext("Points")
    count = seat["cards_left"]
    lines = [
        '<div class="seat-facts">',
        f'<span class="score" title="{points}"><svg class="pip suit-O" aria-hidden="true">'
        f'<use href="#pip-O"></use></svg> <span class="sr-only">{points}:</span>'
        f' <span data-score-seat="{number}">{escape(seat["score"])}</span></span>',
        '<span class="cards-left">'
        + ngettext("%(count)s card", "%(count)s cards", count) % {"count": escape(count)}
        + "</span>",
    ]
    if seat["is_dealer"]:
        lines.append(f'<span class="badge" title="{gettext("Dealer")}">{gettext("dealer")}</span>')
    if seat["is_turn"]:
        lines.append(f'<span class="badge turn">{gettext("to play")}</span>')
    if seat.get("deadline"):
        lines.append(
            f'<span class="clock" data-clock-seat="{number}"'
            f' data-deadline="{escape(seat["deadline"])}"'
            f' title="{gettext("Time left for this card")}">{escape(seat["seconds_left"])} s</span>'
        )
    if seat["stand_in"]:
        title = gettext("Away too long: a bot plays this seat for the rest of the game.")
        lines.append(
            f'<span class="badge stand-in" title="{title}">{gettext("a bot plays for them")}</span>'
        )
    return "\n".join(lines) + "\n</div>"


def _trick(trick: dict, last_trick: dict | None, language: str) -> str:
    cards = trick["cards"]
    classes = "trick"
    if trick["complete"]:
        classes += " complete" + "".join(
            f" won-{card['position']}" for card in cards if card["is_winner"]
        )
    label = gettext("Cards on the table")
    parts = [
        f'<section id="trick" class="{classes}" data-trick="{escape(trick["number"])}"'
        f' aria-label="{label}">\n'
    ]
    for index, card in enumerate(cards):
        newest = index == len(cards) - 1
        key = ("played", language, newest, *(card[name] for name in CARD_KEYS))
        parts.append(kept_piece(key, _played, (card, newest)))
        parts.append("\n")
    if not cards:
        parts.append(f'<p class="hint">{gettext("No card played yet in this trick.")}</p>\n')
    if trick["complete"]:
        said = ngettext(
            "%(name)s takes the trick and %(points)s point.",
            "%(name)s takes the trick and %(points)s points.",
            trick["points"],
        ) % {"name": escape(trick["winner_name"]), "points": escape(trick["points"])}
        why = escape(last_trick["why"]) if last_trick else ""
        parts.append(f'<p class="trick-result">{said} <span class="why">{why}</span></p>\n')
    parts.append("</section>\n")
    return "".join(parts)


def _played(card_and_newest: tuple[dict, bool]) -> str:
    card, newest = card_and_newest
    winner = " winner" if card["is_winner"] else ""
    last = " newest" if newest else ""
    player = escape(card["player"])
    led = f" · {gettext('led')}" if card["is_lead"] else ""
    return (
        f'<div class="played pos-{card["position"]}{winner}{last}" data-card="{card["code"]}"'
        f' data-seat="{card["seat"]}" data-announce="{player}: {escape(card["name"])}.">\n'
        f'{card_face(card)}\n<span class="by">{player}{led}</span>\n</div>'
    )


def _last(last_trick: dict) -> str:
    title = gettext("Last trick")
    heading = gettext("Last trick (%(number)s)") % {"number": escape(last_trick["number"])}
    cards = "".join(
        f'<span class="mini{" winner" if card["is_winner"] else ""}" data-card="{card["code"]}"'
        f' title="{escape(card["player"])}"'
        f' data-announce="{escape(card["player"])}: {escape(card["name"])}.">'
        f'{card_face(card)}<span class="by">{escape(card["player"])}</span></span>'
        for card in last_trick["cards"]
    )
    said = ngettext(
        "%(name)s won %(points)s point.",
        "%(name)s won %(points)s points.",
        last_trick["points"],
    ) % {"name": escape(last_trick["winner_name"]), "points": escape(last_trick["points"])}
    return (
        f'\n<aside id="last-trick" class="last-trick" data-trick="{escape(last_trick["number"])}"'
        f' aria-label="{title}">\n<h2>{heading}</h2>\n<div class="mini-trick">\n{cards}\n</div>\n'
        f'<p class="last-result">{said} <span class="why">{escape(last_trick["why"])}</span></p>\n'
        "</aside>"
    )
