"""Match history: the games of one player, filtered, with what a list row shows.

A page of history costs a fixed number of queries whatever its length and depth: the
player's seats are one slice of an index (keyset pagination, ``common.paging``), then the
games come with their counts (hands, tricks), and their seats with users and profiles in one
prefetch.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F, Func, IntegerField, OuterRef, Prefetch, QuerySet
from django.db.models.expressions import Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from common.paging import Keys, dump_time, load_time, seek
from games.engine.ranking import ranks_of
from games.history.privacy import seen_by
from games.models import Game, Hand, Seat, Trick

WON, LOST, ABANDONED, RUNNING = "won", "lost", "abandoned", "running"
RESULTS = (WON, LOST, ABANDONED, RUNNING)
RESULT_LABELS = {
    WON: gettext_lazy("Won"),
    LOST: gettext_lazy("Lost"),
    ABANDONED: gettext_lazy("Abandoned"),
    RUNNING: gettext_lazy("Running"),
}
HUMANS, BOTS = "humans", "bots"
OPPONENTS = (HUMANS, BOTS)
PER_PAGE = 20


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated ``SELECT COUNT(*)`` of ``queryset`` (filtered on the outer row's game)."""
    counted = queryset.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


KEYS = Keys("started_at", "game_id", dump_time, load_time)


def seats_of(
    player, viewer=None, *, result: str = "", opponents: str = "", target: int | None = None
) -> QuerySet[Seat]:
    """``player``'s seats at started games, as ``viewer`` may list them (unordered: pages
    are slices of the ``seat_history`` indexes, newest first, see ``games_page``).

    Private games are listed only to the people seated at them. ``result`` is one of RESULTS
    (from the player's side), ``opponents`` one of OPPONENTS, ``target`` a target score.
    """
    seats = Seat.objects.filter(user=player, started_at__isnull=False)
    if viewer is None or viewer.pk != player.pk:
        seats = seats.filter(seen_by(viewer, "game_id"))
    if result == RUNNING:
        seats = seats.filter(outcome="")
    elif result in (WON, LOST, ABANDONED):
        seats = seats.filter(outcome=result)
    if opponents in OPPONENTS:
        seats = seats.filter(with_bots=opponents == BOTS)
    if target is not None:
        seats = seats.filter(target=target)
    return seats


def games_page(
    player, viewer=None, *, after=None, before=None, last=False, per_page=PER_PAGE, **filters
):
    """A page of ``player``'s games, newest first (a ``SeekPage`` of games): one slice of an
    index on the seats, the games with their counts, and their seats; three queries
    whatever the page and the player's number of games."""
    page = seek(
        seats_of(player, viewer, **filters), KEYS, per_page, after=after, before=before, last=last
    )
    seats = {seat.game_id: seat for seat in page.rows}
    games = (
        {
            game.pk: game
            for game in Game.objects.filter(pk__in=list(seats))
            .annotate(
                hand_count=_count(Hand.objects.filter(game=OuterRef("pk"))),
                trick_count=_count(
                    Trick.objects.filter(hand__game=OuterRef("pk"), winner__isnull=False)
                ),
            )
            .prefetch_related(
                Prefetch(
                    "seats",
                    queryset=Seat.objects.select_related("user__profile").order_by("number"),
                )
            )
        }
        if seats
        else {}
    )
    rows = []
    for game_id, seat in seats.items():
        game = games[game_id]
        game.player_seat = seat.number
        rows.append(game)
    page.rows = rows
    return page


def finishing_places(game: Game, seats: list[Seat], scores) -> list[int]:
    """Each seat's place, as the ratings rank it: the winner first, people who left (or whom
    a bot replaced) last, the others by points; equal points, equal place."""
    leavers = {seat.number for seat in seats if seat.stand_in}
    if game.abandoned_by is not None:
        leavers.add(game.abandoned_by)
    return ranks_of(scores, game.winner_seat, leavers)


def place_of(game: Game, seats: list[Seat]) -> int | None:
    """The listed player's place in a game that is over (None while it runs)."""
    if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED) or not game.was_dealt:
        return None
    return finishing_places(game, seats, [seat.score for seat in seats])[game.player_seat]


def result_of(game: Game) -> str:
    """The game's result from the side of the player whose history is listed."""
    if game.status == Game.Status.IN_PROGRESS:
        return RUNNING
    if game.status == Game.Status.ABANDONED:
        return ABANDONED
    return WON if game.winner_seat == game.player_seat else LOST


def length_of(game: Game, now=None) -> timedelta | None:
    """How long the game lasted (so far, for a running game)."""
    if game.started_at is None:
        return None
    if game.finished_at is not None:
        end = game.finished_at
    elif game.status == Game.Status.IN_PROGRESS:
        end = game.updated_at or now or timezone.now()
    else:
        return None
    return max(end - game.started_at, timedelta(0))


def duration_text(length: timedelta | None) -> str:
    """A short length of time, e.g. "45 s", "12 min", "1 h 05 min"."""
    if length is None:
        return "\u2013"  # an en dash
    seconds = int(length.total_seconds())
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"
