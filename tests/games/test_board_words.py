"""The board's words (``games/board/words.py``) are Django's: every message of every
language's catalogue, with and without its context, singular and plural, looked up through
the catalogue read once per board, gives what Django's ``gettext`` gives; and a board built
after a change of language speaks the new one."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import trans_real
from hypothesis import given
from hypothesis import strategies as st

from games.board import words

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def message_ids() -> set:
    """Every message id Django has in any language (the project's and Django's apps'),
    English included, which translates none of them."""
    catalogues = [trans_real.translation(code)._catalog for code in LANGUAGES]
    # Django's TranslationCatalog has keys() but no iteration of its own.
    return {key for catalogue in catalogues for key in catalogue.keys()}  # noqa: SIM118


@words.in_board_language
def in_a_board(lookup, *args):
    return lookup(*args)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_every_language_is_django_s_word_for_it(language):
    keys = message_ids()
    assert len(keys) > 1000  # the project's and Django's own messages
    with translation.override(language):
        assert in_a_board(words.get_language) == translation.get_language()
        for key in [*keys, *keys]:  # asked again: the catalogue's answers as kept
            if isinstance(key, tuple):  # a plural form: (message, index)
                singular = key[0]
                for number in (0, 1, 2, 5, 21):
                    got = in_a_board(words.ngettext, singular, singular + "s", number)
                    assert got == translation.ngettext(singular, singular + "s", number)
            elif words.CONTEXT_SEPARATOR in key:
                context, message = key.split(words.CONTEXT_SEPARATOR, 1)
                got = in_a_board(words.pgettext, context, message)
                assert got == translation.pgettext(context, message)
                assert in_a_board(words.gettext, message) == translation.gettext(message)
            else:
                assert in_a_board(words.gettext, key) == translation.gettext(key)


@given(
    message=st.text(alphabet=st.sampled_from("ab\r\n\x04 Points"), max_size=12),
    context=st.sampled_from(["", "suit", "rank", "of suit", "nowhere\r"]),
    safe=st.booleans(),
    language=st.sampled_from(LANGUAGES),
)
def test_odd_words_are_what_django_makes_of_them(message, context, safe, language):
    """Empty words, carriage returns, separators, safe strings and unknown contexts: the
    same text, and the same safety, as Django's."""
    message = mark_safe(message) if safe else message
    with translation.override(language):
        for lookup, django_lookup, args in (
            (words.gettext, translation.gettext, (message,)),
            (words.pgettext, translation.pgettext, (context, message)),
        ):
            got, expected = in_a_board(lookup, *args), django_lookup(*args)
            assert got == expected
            assert isinstance(got, SafeString) == isinstance(expected, SafeString)


def test_a_board_reads_the_language_active_when_it_is_built():
    """Two boards in one thread, in two languages, and one inside another: each speaks the
    language active when the outermost began; outside a board the words follow Django."""
    with translation.override("fr"):
        assert in_a_board(words.gettext, "you") == translation.gettext("you") != "you"
        assert in_a_board(words.get_language) == "fr"
    with translation.override("es"):
        assert in_a_board(words.get_language) == "es"
        assert in_a_board(words.gettext, "you") == translation.gettext("you")
        # A board built inside another keeps the outer board's catalogue.
        assert in_a_board(in_a_board, words.get_language) == "es"
    with translation.override("ca"):
        assert words.gettext("you") == translation.gettext("you")  # no board: Django's
    with translation.override(None):  # translations off: Django's own answer
        assert in_a_board(words.gettext, "you") == "you"
        assert in_a_board(words.get_language) is None


def test_the_words_kept_belong_to_their_catalogue(monkeypatch):
    """A board's words are kept per catalogue: once Django makes a language's catalogue
    anew (a change of the languages' settings), boards speak from the new one."""
    with translation.override("fr"):
        said = translation.gettext("you")
        assert in_a_board(words.gettext, "you") == said != "you"
    old = trans_real.translation("fr")
    assert words._said[old]["you"] == said
    monkeypatch.setattr(trans_real, "_translations", {})  # as setting_changed does
    new = trans_real.translation("fr")
    assert new is not old
    monkeypatch.setattr(new, "gettext", lambda message: message.upper())
    with translation.override("fr"):
        assert in_a_board(words.gettext, "you") == "YOU"
    assert words._said[old]["you"] == said  # the old catalogue's words are still its own
