"""What a server process does once, before its first connection, that each connection would
otherwise do while others wait.

Django works out its URL map the first time a URL is built in each language (about 15 ms a
language, 120 ms for the first, which imports every app's URLs), and does not hold a lock
while it does: every thread that builds a URL before the first is done works it out again.
A server that starts with sockets waiting (a restart, a deploy) opened them all at once, in
its database threads, each building the table's URL: with 200 tables on two servers, a
server spent 0.4 s of its first seconds there, and the cards played meanwhile waited up to
170 ms (docs/benchmarks.md, twenty-second sitting). The templates and the languages'
catalogues are read here too, for the same reason.

The warm-up runs in a context of its own (``warm_up_aside``). Each of Django's URL resolvers
keeps an ``asgiref`` ``Local`` (its ``populating`` flag), and working the map out sets all of
them: about 50 context variables, which stayed in the server's context when the warm-up ran
there. Every connection's task copies that context, and every thread hop (``sync_to_async``:
a socket's opening, a page request) walks its variables and moves each ``Local`` to the
thread: with 50 of them a hop took 0.24 ms of CPU instead of 0.10 (docs/benchmarks.md,
twenty-fifth sitting).
"""

from __future__ import annotations

import contextvars

from django.conf import settings
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

TEMPLATES_FIRST_READ = ("games/table.html", "games/table.html#board", "games/table.html#message")


def warm_up() -> list[str]:
    """Build the URL map and read the catalogue in every language the site speaks, and
    compile the table's templates; return the languages warmed."""
    for name in TEMPLATES_FIRST_READ:
        get_template(name)
    warmed = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            reverse("game_table", args=[1])  # works out the language's map
            translation.gettext("Your turn.")
        warmed.append(language)
    return warmed


def warm_up_aside() -> list[str]:
    """``warm_up`` in a copy of the current context: what it sets there (the resolvers'
    ``Local`` flags, the language it overrides) is not inherited by every connection."""
    return contextvars.copy_context().run(warm_up)
