"""Drawing cards: one card face is built once per card and language, then reused.

A table shows up to 22 faces and is re-rendered on every move, so the face is a cached
string rather than an included template.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

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
