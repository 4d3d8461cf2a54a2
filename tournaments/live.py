"""The live part of a tournament's page (its standings and your table): one context for the
page, its 3 s poll and its socket, and the notice that tells the sockets it changed.

A notice is sent after the change commits (``transaction.on_commit``) and carries no
standings, only a stamp naming the change: each process renders the standings table once per
change and language, and each socket adds its viewer's part (their row marked, their table
link, which is theirs only). A channel layer that is down costs the sockets the notice, not
the change: pages poll while their socket is not open, and every 30 s even while it is
(static/js/tournament.js).
"""

from __future__ import annotations

import logging
import uuid

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from common.once import RenderedOnce
from games.realtime.channels_adapter import retrying

from .models import Entry, Tournament
from .selectors import current_table, standings

log = logging.getLogger(__name__)


def group_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def live_context(tournament: Tournament, user, stamp: str | None = None) -> dict:
    """The live partial's context for ``user``: the standings (rendered once per change and
    language in this process when the change's ``stamp`` is given), their own row marked,
    and their table."""
    mine = None
    if user is not None and user.is_authenticated:
        mine = Entry.objects.filter(tournament=tournament, user=user).first()
    return {
        "tournament": tournament,
        "standings_html": marked_as_yours(shared_standings(tournament, stamp), user),
        "mine": mine,
        "table": current_table(tournament, user) if user is not None else None,
    }


def live_html(tournament_id: int, user, stamp: str | None = None) -> str | None:
    """The live partial as ``user`` sees it (None if the tournament is gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    context = live_context(tournament, user, stamp) | {"user": user}
    return render_to_string("tournaments/detail.html#live", context)


STANDINGS_KEPT = 64  # standings tables kept per process (the newest changes)
_standings = RenderedOnce(STANDINGS_KEPT)


def shared_standings(tournament: Tournament, stamp: str | None) -> str:
    """The standings table, the same for every viewer. Every socket of this process that
    hears of one change (one ``stamp``) shows it: the first renders it, the others wait for
    it and reuse it. An arena of 60 people rendered it for each socket, each change: 42% of
    a server's time (docs/tournaments.md)."""

    def render() -> str:
        context = {"standings": standings(tournament)}
        return render_to_string("tournaments/detail.html#standings", context)

    if stamp is None:
        return render()
    return _standings.get((tournament.pk, get_language(), stamp), render)


def marked_as_yours(standings_html: str, user) -> str:
    """The standings with ``user``'s row marked (``class="you"``)."""
    if user is None or not user.is_authenticated:
        return mark_safe(standings_html)
    row = f'<tr data-player="{escape(user.get_username())}"'
    return mark_safe(standings_html.replace(row, f'<tr class="you"{row[3:]}', 1))


def standings_changed(tournament_id: int) -> None:
    """Tell the tournament's sockets, once the current transaction commits, that its
    standings or tables changed."""
    transaction.on_commit(lambda: _notify(tournament_id))


def _notify(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        event = {"type": "tournament.update", "stamp": uuid.uuid4().hex}
        async_to_sync(retrying)(layer.group_send, group_name(tournament_id), event)
    except Exception as error:  # the change is committed; pages poll while unsure
        log.warning("Could not tell the sockets of tournament %s: %s", tournament_id, error)
