"""The board's words in the viewer's language, the language looked up once per board.

Django's ``gettext`` finds the active language anew for every word, through asgiref's
``Local`` (a lock and a context manager): 2 µs a word, 4 µs with a context, and a board
asks for about 35 of them, on every move. A board is built in one go (no ``await`` inside),
so ``in_board_language`` reads the active catalogue once, into a context variable, and these
functions take their words from it: the same catalogue Django's would use (``activate``
stores ``translation(language)``, which is cached), so the same words, each kept once
asked. Outside a board, or for a word Django treats specially (empty, with a carriage return,
marked safe), they are Django's own.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from functools import wraps
from typing import NamedTuple, TypeVar
from weakref import WeakKeyDictionary

from django.utils import translation
from django.utils.safestring import SafeData
from django.utils.translation import trans_real


class _Words(NamedTuple):
    language: str
    catalogue: object  # Django's translation object for ``language``
    said: dict  # the catalogue's answers so far, by message or (context, message)


# Each catalogue's answers, kept while Django keeps the catalogue (a change of the languages'
# settings makes new ones): a catalogue's own lookup goes through every file it merged and
# its fallbacks, 1 to 2 µs a word, a dictionary's 0.05 µs.
_said: WeakKeyDictionary = WeakKeyDictionary()
SAID_KEPT = 5000  # answers kept per catalogue at most (the board's words are a few hundred)


_board: ContextVar[_Words | None] = ContextVar("board_words", default=None)
CONTEXT_SEPARATOR = "\x04"  # gettext's, as Django's pgettext joins a context to its word
F = TypeVar("F", bound=Callable)


def in_board_language(build: F) -> F:
    """Run ``build`` with the active language's catalogue read once for all its words."""

    @wraps(build)
    def built(*args, **kwargs):
        if _board.get() is not None:
            return build(*args, **kwargs)  # inside a board already
        language = translation.get_language()
        if not language:  # translations deactivated: Django's own functions know what to do
            return build(*args, **kwargs)
        catalogue = trans_real.translation(language)
        said = _said.get(catalogue)
        if said is None:
            said = _said.setdefault(catalogue, {})
        token = _board.set(_Words(language, catalogue, said))
        try:
            return build(*args, **kwargs)
        finally:
            _board.reset(token)

    return built


def _plain(message) -> bool:
    return bool(message) and "\r" not in message and not isinstance(message, SafeData)


def get_language() -> str | None:
    words = _board.get()
    return words.language if words is not None else translation.get_language()


def gettext(message: str) -> str:
    words = _board.get()
    if words is None or not _plain(message):
        return translation.gettext(message)
    said = words.said.get(message)
    if said is None:
        said = words.catalogue.gettext(message)
        if len(words.said) < SAID_KEPT:
            words.said[message] = said
    return said


def pgettext(context: str, message: str) -> str:
    words = _board.get()
    if words is None or not _plain(message) or not _plain(context):
        return translation.pgettext(context, message)
    said = words.said.get((context, message))  # a pair: never a message of ``gettext``
    if said is None:
        result = words.catalogue.gettext(f"{context}{CONTEXT_SEPARATOR}{message}")
        said = message if CONTEXT_SEPARATOR in result else result
        if len(words.said) < SAID_KEPT:
            words.said[context, message] = said
    return said


def ngettext(singular: str, plural: str, number: int) -> str:
    words = _board.get()
    if words is None:
        return translation.ngettext(singular, plural, number)
    return words.catalogue.ngettext(singular, plural, number)
