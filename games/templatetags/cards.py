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
def card_face(card: dict) -> SafeString:
    """Return the face of ``card`` (from presenters.card_info): number, symbol and letter.

    The suit is shown by a symbol and a letter as well as a colour, so it never relies on
    colour alone.
    """
    key = (card["code"], get_language() or "")
    face = _faces.get(key)
    if face is None:
        face = format_html(
            '<span class="card-face suit-{suit}"><span class="rank">{rank}</span>'
            '<svg class="pip" aria-hidden="true"><use href="#pip-{suit}"></use></svg>'
            '<span class="suit-letter" aria-hidden="true">{suit}</span>'
            '<span class="sr-only">{name}</span></span>',
            suit=card["suit"],
            rank=card["rank"],
            name=card["name"],
        )
        _faces[key] = face
    return face
