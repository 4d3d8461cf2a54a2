"""Running a duplicate event between people: joining, starting (bots fill to a multiple of
three, the first deal's tables made), and each next deal once the last one's tables have all
ended (``event_advance``, from the runners' spare time). The schedule is ``duplicate.events``.
The tables are the games' own, on the event's clock: an absent person's cards are played for
them when their clock runs out, then a stand-in bot takes their seat (``games.table.flow``).

Every change of an event happens with its row locked, so two runners (or two staff clicks)
doing the same step at once do it once: the second waits, then finds it done.
"""

from __future__ import annotations

import hashlib
import hmac
import random

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.kept_rows import row_exists
from games.models import Game
from games.table.errors import GameError
from games.table.seats import game_create_for

from . import events
from .models import DuplicateEvent, EventEntry, EventTable

ENDED = (Game.Status.FINISHED, Game.Status.ABANDONED)


def event_seed(event: DuplicateEvent, deal: int) -> str:
    """The secret seed of ``deal`` (1 to ``event.deals``) of ``event``: the same at every
    table of the deal, and nobody can work it out without the server's secret."""
    secret = (settings.COINS_DUPLICATE_SECRET or settings.SECRET_KEY).encode()
    message = f"coins/duplicate/event/{event.pk}/{deal}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def event_bot(event: DuplicateEvent) -> str:
    return event.bot or settings.COINS_DUPLICATE_BOT


def _locked(event_id: int) -> DuplicateEvent:
    return DuplicateEvent.objects.select_for_update().get(pk=event_id)


def event_join(*, user, event_id: int) -> EventEntry:
    """Enter ``user`` in an event still open (joining twice is joining once)."""
    with transaction.atomic():
        event = _locked(event_id)
        entry = EventEntry.objects.filter(event=event, user=user).first()
        if entry is not None:
            return entry
        if event.status != DuplicateEvent.Status.OPEN:
            raise GameError(_("This event has started: it takes no more players."))
        return EventEntry.objects.create(event=event, user=user)


def event_leave(*, user, event_id: int) -> None:
    """Take ``user`` out of an event that has not started."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != DuplicateEvent.Status.OPEN:
            raise GameError(_("This event has started: you can no longer leave it."))
        EventEntry.objects.filter(event=event, user=user).delete()


def event_start(event_id: int) -> DuplicateEvent:
    """Start an open event: bots fill it to a multiple of three, everyone gets their number
    in the schedule, and the first deal's tables are made. Starting a started event does
    nothing."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != DuplicateEvent.Status.OPEN:
            return event
        people = list(EventEntry.objects.filter(event=event, user__isnull=False))
        if not people:
            raise GameError(_("Nobody has joined this event."))
        players = events.players_filled(len(people))
        bots = events.bot_players(players, players - len(people))
        random.SystemRandom().shuffle(people)  # who meets whom: nobody can arrange it
        free = iter(number for number in range(players) if number not in bots)
        for entry in people:
            entry.player = next(free)
        EventEntry.objects.bulk_update(people, ["player"])
        EventEntry.objects.bulk_create(EventEntry(event=event, player=number) for number in bots)
        event.status, event.round, event.started_at = (
            DuplicateEvent.Status.RUNNING,
            1,
            timezone.now(),
        )
        event.save(update_fields=["status", "round", "started_at"])
        _round_start(event)
        return event


def _round_start(event: DuplicateEvent) -> list[EventTable]:
    """Make the tables of the event's current deal, as the schedule seats them."""
    entries = {entry.player: entry for entry in event.entries.select_related("user")}
    seed = event_seed(event, event.round)
    tables = []
    for table in events.schedule(len(entries), event.deals)[event.round - 1]:
        game = game_create_for(
            people=[entries[player].user for player in table.seats],
            bot=event_bot(event),
            target=event.target,
            clock=event.clock,
            is_rated=False,
            is_public=False,
            seed=seed,
        )
        tables.append(EventTable(event=event, deal=event.round, number=table.number, game=game))
    return EventTable.objects.bulk_create(tables)


def _round_over(event: DuplicateEvent) -> bool:
    return not (
        EventTable.objects.filter(event=event, deal=event.round)
        .exclude(game__status__in=ENDED)
        .exists()
    )


def event_advance(event_id: int) -> DuplicateEvent:
    """Once every table of the current deal has ended, start the next deal (or, after the
    last, finish the event). Idempotent: a deal's tables are made once, under the lock."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != DuplicateEvent.Status.RUNNING or not _round_over(event):
            return event
        if event.round >= event.deals:
            event.status, event.finished_at = DuplicateEvent.Status.FINISHED, timezone.now()
            event.save(update_fields=["status", "finished_at"])
            return event
        event.round += 1
        event.save(update_fields=["round"])
        _round_start(event)
        return event


def events_advance() -> int:
    """Move on every running event whose deal is over (the runners' spare time, about once a
    second); return how many moved."""
    if not row_exists(DuplicateEvent, status=DuplicateEvent.Status.RUNNING):  # nearly always
        return 0
    moved = 0
    for event in DuplicateEvent.objects.filter(status=DuplicateEvent.Status.RUNNING):
        if _round_over(event):
            before = (event.status, event.round)
            after = event_advance(event.pk)
            moved += (after.status, after.round) != before
    return moved
