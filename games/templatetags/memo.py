"""``{% memo a b %}...{% endmemo %}``: a fragment rendered once per language and values.

The board is rendered again for every move and every viewer, and most of it has not
changed: a seat's name, badges and score, the card buttons of a hand. Django's template
engine spends about 0.15 ms on one seat; a dictionary lookup is a few microseconds. A memo
block keeps its output, keyed by the block, the active language and the values named in the
tag, in this process (the most recent ``LIMIT`` fragments).

The block must depend on nothing else: only the named values (dicts and lists are compared by
content), constants, ``{% translate %}`` and ``{% url %}``. No CSRF token, no request, no
clock. ``tests/games/test_memo.py`` renders every board of whole games with and without the
memo and compares them.
"""

from __future__ import annotations

import itertools

from django import template
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

LIMIT = 20_000  # fragments kept (a seat's is about 1 kB: some 20 MB at most)
_kept: dict[tuple, SafeString] = {}
_block_numbers = itertools.count()  # a block's identity: stable while its template is loaded


def frozen(value):
    """``value`` as a hashable key: dicts and lists by their content, lazy translations as
    their text (in the active language, which is part of the key)."""
    if isinstance(value, str | int | float | bool | type(None)):
        return value
    if isinstance(value, Promise):
        return str(value)
    if isinstance(value, dict):
        return tuple(sorted((key, frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return tuple(frozen(item) for item in value)
    return repr(value)


class MemoNode(template.Node):
    def __init__(self, nodelist, keys):
        self.nodelist = nodelist
        self.keys = keys
        self.number = next(_block_numbers)

    def render(self, context):
        key = (
            self.number,
            get_language(),
            *(frozen(expression.resolve(context)) for expression in self.keys),
        )
        fragment = _kept.get(key)
        if fragment is None:
            fragment = mark_safe(self.nodelist.render(context))
            if len(_kept) >= LIMIT:
                _kept.pop(next(iter(_kept)), None)  # the oldest first
            _kept[key] = fragment
        return fragment


@register.tag
def memo(parser, token):
    """``{% memo value ... %}`` ... ``{% endmemo %}``."""
    keys = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    if not keys:
        raise template.TemplateSyntaxError("memo needs the values its block depends on")
    nodelist = parser.parse(("endmemo",))
    parser.delete_first_token()
    return MemoNode(nodelist, keys)


def forget() -> None:
    """Drop every kept fragment (the tests compare boards rendered without them)."""
    _kept.clear()
