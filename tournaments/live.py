"""The live part of a tournament's page (its standings and your table): one context for the
page, its 3 s poll and its socket, and the notice that tells the sockets it changed.

A notice is sent after the change commits (``transaction.on_commit``) and carries no
standings: each socket renders the partial for its own viewer (your table link is yours
only). A channel layer that is down costs the sockets the notice, not the change: pages
poll while their socket is not open, and every 30 s even while it is (static/js/tournament.js).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.template.loader import render_to_string

from games.realtime.channels_adapter import retrying

from .models import Entry, Tournament
from .selectors import current_table, standings

log = logging.getLogger(__name__)


def group_name(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def live_context(tournament: Tournament, user) -> dict:
    mine = None
    if user is not None and user.is_authenticated:
        mine = Entry.objects.filter(tournament=tournament, user=user).first()
    return {
        "tournament": tournament,
        "standings": standings(tournament),
        "mine": mine,
        "table": current_table(tournament, user) if user is not None else None,
    }


def live_html(tournament_id: int, user) -> str | None:
    """The live partial as ``user`` sees it (None if the tournament is gone)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    context = live_context(tournament, user) | {"user": user}
    return render_to_string("tournaments/detail.html#live", context)


def standings_changed(tournament_id: int) -> None:
    """Tell the tournament's sockets, once the current transaction commits, that its
    standings or tables changed."""
    transaction.on_commit(lambda: _notify(tournament_id))


def _notify(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        event = {"type": "tournament.update"}
        async_to_sync(retrying)(layer.group_send, group_name(tournament_id), event)
    except Exception as error:  # the change is committed; pages poll while unsure
        log.warning("Could not tell the sockets of tournament %s: %s", tournament_id, error)
