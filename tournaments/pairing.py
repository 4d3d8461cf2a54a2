"""Starting tournaments, rounds and tables: the background work the table runners do
(``tournaments.lane``). Each tournament is advanced in one transaction with its row locked
(``FOR UPDATE SKIP LOCKED``: a second runner passes it by), so nobody is ever seated twice;
and everything it decides (status, round, tables) commits together or not at all, so a
runner killed mid-way leaves the tournament as it was, for the next one to advance.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.models import Seat
from games.table.options import QUEUE_BOT
from games.table.seats import game_create_for

from .live import standings_changed
from .models import Entry, Tournament, TournamentGame
from .notices import note_table_ready
from .selectors import STANDINGS_ORDER, active_entries
from .swiss import played_trios, swiss_round

LIVE = (Tournament.Status.UPCOMING, Tournament.Status.RUNNING)


def tournaments_tick(now: datetime | None = None) -> int:
    """Advance every tournament that has started; the number of tables seated."""
    now = now or timezone.now()
    ids = Tournament.objects.filter(status__in=LIVE, starts_at__lte=now).values_list(
        "pk", flat=True
    )
    return sum(tournament_advance(tournament_id=pk, now=now) for pk in ids)


def tournament_advance(*, tournament_id: int, now: datetime | None = None) -> int:
    """Start the tournament when its time has come, seat who is due a table, end it when its
    time or rounds are over; the number of tables seated (0 if another runner holds it)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = (
            Tournament.objects.select_for_update(skip_locked=True)
            .filter(pk=tournament_id, status__in=LIVE, starts_at__lte=now)
            .first()
        )
        if tournament is None:
            return 0
        before = (tournament.status, tournament.current_round)
        seated = _advance_locked(tournament, now)
        if seated or (tournament.status, tournament.current_round) != before:
            standings_changed(tournament.pk)  # tables are ready, a round began or it ended
        return seated


def _advance_locked(tournament: Tournament, now: datetime) -> int:
    if tournament.status == Tournament.Status.UPCOMING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        active_entries(tournament).update(waiting_since=now)
    if tournament.kind == Tournament.Kind.ARENA:
        return _arena(tournament, now)
    return _swiss(tournament)


def _playing(tournament: Tournament) -> set[int]:
    """The people seated at a game of the tournament not scored yet."""
    return set(
        Seat.objects.filter(
            game__tournament_game__tournament=tournament,
            game__tournament_game__scored=False,
            user__isnull=False,
        ).values_list("user_id", flat=True)
    )


def _finish_when_played(tournament: Tournament) -> None:
    if not TournamentGame.objects.filter(tournament=tournament, scored=False).exists():
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])


def _arena(tournament: Tournament, now: datetime) -> int:
    """Seat the people waiting, in threes by points; one or two left over wait for others,
    and take bots once the first of them has waited ``COINS_ARENA_BOTS_AFTER`` seconds."""
    if now >= tournament.ends_at:
        _finish_when_played(tournament)
        return 0
    playing = _playing(tournament)
    waiting = [
        entry
        for entry in active_entries(tournament)
        .select_related("user__profile")
        .order_by(*STANDINGS_ORDER)
        if entry.user_id not in playing
    ]
    for entry in waiting:
        if entry.waiting_since is None:
            entry.waiting_since = now
            entry.save(update_fields=["waiting_since"])
    groups = [waiting[i : i + 3] for i in range(0, len(waiting), 3)]
    if groups and len(groups[-1]) < 3:
        bots_after = timedelta(seconds=settings.COINS_ARENA_BOTS_AFTER)
        if min(entry.waiting_since for entry in groups[-1]) > now - bots_after:
            groups.pop()  # they wait a little longer for people
    for group in groups:
        _seat(tournament, group, round_number=0)
    return len(groups)


def _swiss(tournament: Tournament) -> int:
    """Start the next round once every table of this one has been scored: people in order
    of the standings (a shuffle in round 1), seated in threes, so that each table holds
    people of like scores, and no three who played together before where a swap avoids it;
    one or two play with bots (byes), those with the fewest byes so far
    (``tournaments.swiss``)."""
    if TournamentGame.objects.filter(tournament=tournament, scored=False).exists():
        return 0
    if tournament.current_round >= tournament.rounds:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return 0
    entries = list(
        active_entries(tournament).select_related("user__profile").order_by(*STANDINGS_ORDER)
    )
    if tournament.current_round == 0:
        random.Random(f"swiss-{tournament.pk}").shuffle(entries)
    tournament.current_round += 1
    tournament.save(update_fields=["current_round"])
    if not entries:
        return 0
    played = set()
    if tournament.current_round > 1:
        seatings = Seat.objects.filter(
            game__tournament_game__tournament=tournament, user__isnull=False
        ).values_list("game_id", "user_id")
        played = played_trios(seatings)
    groups = swiss_round(
        entries,
        played,
        person=lambda entry: entry.user_id,
        points=lambda entry: entry.points,
        byes=lambda entry: entry.byes,
    )
    for group in groups:
        _seat(tournament, group, round_number=tournament.current_round)
    return len(groups)


def _seat(tournament: Tournament, group: list[Entry], *, round_number: int) -> None:
    """One table for ``group`` (bots in the seats left), in a random seat order."""
    people = [entry.user for entry in group]
    random.shuffle(people)
    game = game_create_for(
        people=people,
        bot=settings.COINS_TOURNAMENT_BOT or QUEUE_BOT,
        target=tournament.target,
        clock=tournament.clock,
        is_rated=tournament.is_rated,
    )
    tournament_game = TournamentGame.objects.create(
        tournament=tournament, game=game, round=round_number
    )
    note_table_ready(tournament_game=tournament_game, people=people)
    byes = 3 - len(group)
    for entry in group:
        entry.waiting_since = None
        entry.byes += byes > 0
        entry.save(update_fields=["waiting_since", "byes"])
