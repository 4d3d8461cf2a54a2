"""A server works out what every connection needs before its first one (``warm_up``)."""

import contextvars
import threading
from unittest import mock

from asgiref.local import _Storage
from django.conf import settings
from django.urls import clear_url_caches, get_resolver, reverse
from django.urls.resolvers import URLResolver
from django.utils import translation

from coins_site.warm_up import warm_up, warm_up_aside


def test_no_connection_works_the_url_map_out_again_after_the_warm_up():
    clear_url_caches()  # as a process that has built no URL yet
    languages = [code for code, _name in settings.LANGUAGES]
    assert not get_resolver()._reverse_dict
    assert warm_up() == languages
    assert set(get_resolver()._reverse_dict) >= set(languages)
    worked_out = []
    real = URLResolver._populate

    def counted(resolver):
        worked_out.append(translation.get_language())
        real(resolver)

    def build_urls(language):
        with translation.override(language):
            reverse("game_table", args=[7])
            reverse("analysis_summary", args=[7])

    with mock.patch.object(URLResolver, "_populate", counted):
        threads = [threading.Thread(target=build_urls, args=(code,)) for code in languages * 4]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert worked_out == []  # without the warm-up, each thread worked it out in its language


def _locals_left_by(warm) -> int:
    """How many ``asgiref`` ``Local`` values ``warm`` leaves in a fresh context, run as a
    process that has built no URL yet."""
    clear_url_caches()

    def in_fresh_context():
        warm()
        return sum(isinstance(value, _Storage) for value in contextvars.copy_context().values())

    return contextvars.Context().run(in_fresh_context)


def test_the_warm_up_leaves_no_local_in_the_context_every_connection_copies():
    # Run in the server's own context, working the URL map out sets one Local per resolver
    # there, and every thread hop of every connection then walks them all.
    assert _locals_left_by(warm_up) >= 10
    assert _locals_left_by(warm_up_aside) == 0
    assert get_resolver()._reverse_dict  # and the map is worked out all the same
