"""Drawing cards: one card face is built once per card and language, then reused.

A table shows up to 22 faces and is re-rendered on every move, so the face is a cached
string rather than an included template.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_noop

from games.board.words import get_language, gettext

register = template.Library()

_faces: dict[tuple[str, str], SafeString] = {}


@register.simple_tag
def card_face(card: dict, label: str = "") -> SafeString:
    """Return the face of ``card`` (from presenters.card_info): its number, and its suit's
    symbol in the middle and in the corner (symbols read the same in every language).

    The suit is shown by its symbol as well as a colour, so it never relies on colour alone.
    Screen readers get the card's name, or ``label`` (a hand's button: "Play the ...").
    """
    key = (card["code"], get_language() or "", label)
    face = _faces.get(key)
    if face is None:
        face = format_html(
            '<span class="card-face suit-{suit}"><span class="rank" aria-hidden="true">{rank}'
            "</span>"
            '<svg class="pip" aria-hidden="true"><use href="#pip-{suit}"></use></svg>'
            '<svg class="corner-pip" aria-hidden="true"><use href="#pip-{suit}"></use></svg>'
            '<span class="sr-only">{name}</span></span>',
            suit=card["suit"],
            rank=card["rank"],
            name=label or card["name"],
        )
        _faces[key] = face
    return face


_buttons: dict[tuple, SafeString] = {}  # (card, verdict, label, mode, language) -> a button
VERDICTS = {  # a verdict's mark, and its words for screen readers
    "wins": ("✓", gettext_noop("takes the trick")),
    "can-win": ("?", gettext_noop("can win")),
    "cannot-win": ("✗", gettext_noop("cannot win")),
}


@register.simple_tag
def hand_buttons(hand: list[dict], can_play: bool, running: bool, stood_in: bool) -> SafeString:
    """The buttons of the viewer's hand (from presenters.hand_card): to play on their turn,
    to choose ahead while others play, else disabled. Each button is built once per card,
    verdict, label, kind and language: a board is rendered every move, and the template's
    16 buttons took a third of its time."""
    if not hand:
        return format_html('<p class="hint">{}</p>', gettext("No cards left."))
    mode = "play" if can_play else "ahead" if running and not stood_in else "off"
    language = get_language() or ""
    shown = []
    for card in hand:
        key = (card["code"], card["verdict"], card["play_label"], mode, language)
        button = _buttons.get(key)
        if button is None:
            button = _buttons[key] = _hand_button(card, mode)
        shown.append(button)
    return mark_safe("".join(shown))


def _hand_button(card: dict, mode: str) -> SafeString:
    code, verdict = card["code"], card["verdict"]
    if mode == "play":
        extra = format_html(' data-verdict="{}"', verdict) if verdict else ""
        opening = format_html(
            '<button type="submit" name="card" value="{}" class="card" data-card="{}"{}>',
            code,
            code,
            extra,
        )
    elif mode == "ahead":
        opening = format_html(
            '<button type="button" class="card" data-card="{}" data-premove aria-pressed="false">',
            code,
        )
    else:
        opening = format_html('<button type="button" class="card" data-card="{}" disabled>', code)
    mark = ""
    if verdict:
        symbol, words = VERDICTS.get(verdict, VERDICTS["cannot-win"])
        mark = format_html(
            '<span class="verdict"><span aria-hidden="true">{}</span>'
            '<span class="verdict-text"> {}</span></span>',
            symbol,
            gettext(words),
        )
    return format_html("{}{}{}</button>", opening, card_face(card, card["play_label"]), mark)
