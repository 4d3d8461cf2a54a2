"""Match history: the games of one player, filtered, with what a list row shows.

A page of history costs a fixed number of queries whatever its length: the games come with
their counts (hands, tricks) and the player's seat as subqueries, and their seats with users
and profiles in one prefetch.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Exists, F, Func, IntegerField, OuterRef, Prefetch, QuerySet
from django.db.models.expressions import Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from .models import Game, Hand, Seat, Trick
from .selectors import seen_by

WON, LOST, ABANDONED, RUNNING = "won", "lost", "abandoned", "running"
RESULTS = (WON, LOST, ABANDONED, RUNNING)
HUMANS, BOTS = "humans", "bots"
OPPONENTS = (HUMANS, BOTS)
PER_PAGE = 20


def _count(queryset: QuerySet) -> Coalesce:
    """A correlated ``SELECT COUNT(*)`` of ``queryset`` (filtered on the outer game)."""
    counted = queryset.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def games_of(
    player, viewer=None, *, result: str = "", opponents: str = "", target: int | None = None
) -> QuerySet[Game]:
    """Every started game of ``player``, newest first, as ``viewer`` may list them.

    Private games are listed only to the people seated at them. ``result`` is one of RESULTS
    (from the player's side), ``opponents`` one of OPPONENTS, ``target`` a target score.
    """
    games = (
        Game.objects.filter(started_at__isnull=False)
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=player)))
        .annotate(
            player_seat=Subquery(
                Seat.objects.filter(game=OuterRef("pk"), user=player).values("number")[:1]
            ),
            against_bots=Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(bot="")),
            hand_count=_count(Hand.objects.filter(game=OuterRef("pk"))),
            trick_count=_count(
                Trick.objects.filter(hand__game=OuterRef("pk"), winner__isnull=False)
            ),
        )
    )
    if viewer is None or viewer.pk != player.pk:
        games = games.filter(seen_by(viewer))
    if result == WON:
        games = games.filter(status=Game.Status.FINISHED, winner_seat=F("player_seat"))
    elif result == LOST:
        games = games.filter(status=Game.Status.FINISHED).exclude(winner_seat=F("player_seat"))
    elif result == ABANDONED:
        games = games.filter(status=Game.Status.ABANDONED)
    elif result == RUNNING:
        games = games.filter(status=Game.Status.IN_PROGRESS)
    if opponents == BOTS:
        games = games.filter(against_bots=True)
    elif opponents == HUMANS:
        games = games.filter(against_bots=False)
    if target is not None:
        games = games.filter(target=target)
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user__profile").order_by("number"))
    ).order_by("-started_at", "-pk")


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
