"""Reading a duplicate event: each deal's results, seat by seat, scored by matchpoints against
everyone who held the same seat of the same deal, and the event's standings."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.models import Game, Seat

from . import events
from .models import DuplicateEvent, EventEntry, EventTable
from .selectors import excluded_from
from .standings import ScoredRow, Standing, rows_score, standings_build


@dataclass(kw_only=True)
class EventRow(ScoredRow):
    """One finished result: one entry's seat at one table of one deal (``key`` is the
    entry's id)."""

    table: int


@dataclass
class SeatResults:
    """Everyone who held ``seat`` of ``deal``, finished results only, best first."""

    deal: int
    seat: int
    rows: list[EventRow] = field(default_factory=list)


def entry_name(entry: EventEntry) -> str:
    if entry.user_id is not None:
        return entry.user.username
    return _("Bot %(number)d") % {"number": entry.player + 1}


def event_results(event: DuplicateEvent) -> list[SeatResults]:
    """Every deal and seat played so far with its finished results and their matchpoints
    (people and the bots filling the event alike: each held those cards)."""
    entries = {entry.player: entry for entry in event.entries.select_related("user")}
    if not entries or None in entries:
        return []
    plan = events.schedule(len(entries), event.deals)
    groups: dict[tuple[int, int], SeatResults] = {}
    tables = (
        EventTable.objects.filter(event=event, game__status=Game.Status.FINISHED)
        .select_related("game")
        .only("deal", "number", "game__id", "game__winner_seat")
        .prefetch_related(
            Prefetch("game__seats", queryset=Seat.objects.only("game_id", "number", "score"))
        )
        .order_by("deal", "number")
    )
    for table in tables:
        game = table.game
        scores = {seat.number: seat.score for seat in game.seats.all()}
        for seat, player in enumerate(plan[table.deal - 1][table.number].seats):
            entry = entries[player]
            group = groups.setdefault((table.deal, seat), SeatResults(table.deal, seat))
            group.rows.append(
                EventRow(
                    key=entry.pk,
                    player=entry_name(entry),
                    user_id=entry.user_id,
                    game_id=game.pk,
                    table=table.number,
                    points=scores.get(seat) or 0,
                    won=game.winner_seat == seat,
                )
            )
    for group in groups.values():
        rows_score(group.rows)
    return [groups[key] for key in sorted(groups)]


def event_standings(results: list[SeatResults], *, excluded=()) -> list[Standing]:
    """Each entry's average percentage over the deals they finished, best first (more deals
    finished, then the name, order a tie), without the people in ``excluded`` (ids)."""
    return standings_build((group.rows for group in results), excluded=excluded)


def event_board(event: DuplicateEvent) -> tuple[list[SeatResults], list[Standing]]:
    """The event's results and its listed standings (without the people staff excluded)."""
    results = event_results(event)
    return results, event_standings(results, excluded=excluded_from(event_id=event.pk))


def my_table(event: DuplicateEvent, user) -> Game | None:
    """The game ``user`` sits at in the event's current deal, if any."""
    if not user.is_authenticated or event.status != DuplicateEvent.Status.RUNNING:
        return None
    table = (
        EventTable.objects.filter(event=event, deal=event.round, game__seats__user=user)
        .select_related("game")
        .first()
    )
    return table.game if table else None


def event_policy_of_game(game: Game) -> dict:
    """An event's table is seen by the people seated there alone (no invite opens it) and
    gives no hints: the same deal is being played at the other tables. Once the event has
    finished, every table of it is open to all (table, replay, record, analysis)."""
    table = EventTable.objects.filter(game_id=game.pk).select_related("event").first()
    if table is None:
        return {}
    policy = {"sealed": True, "no_hints": True}
    if table.event.status == DuplicateEvent.Status.FINISHED:
        policy["open"] = True
    return policy


def current_events(limit: int = 10) -> list[DuplicateEvent]:
    """The events open to join or running, newest first (for ``/duplicate/``)."""
    return list(DuplicateEvent.objects.exclude(status=DuplicateEvent.Status.FINISHED)[:limit])
