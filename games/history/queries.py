"""The lists pages read: the lobby's tables, a person's running games, the games people may
watch, and a player's statistics and latest games."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from games.history.games import games_page
from games.models import Game, PlayerStats, Seat


def open_tables() -> QuerySet[Game]:
    """Public tables waiting for players, newest first, at most
    ``COINS_LOBBY_TABLES_PER_CREATOR`` of each creator (nobody fills the lobby alone)."""
    newest_of_creator = Window(
        RowNumber(), partition_by=[F("created_by_id")], order_by=F("created_at").desc()
    )
    waiting = Game.objects.filter(status=Game.Status.WAITING, is_public=True)
    return (
        waiting.annotate(creator_rank=newest_of_creator)
        .filter(creator_rank__lte=settings.COINS_LOBBY_TABLES_PER_CREATOR)
        .prefetch_related("seats__user")
        .order_by("-created_at")
    )


def running_games_of(user) -> QuerySet[Game]:
    """``user``'s waiting and running tables, those where it is their turn first
    (``my_turn``)."""
    to_play_is_me = Seat.objects.filter(
        game=OuterRef("pk"), user=user, number=OuterRef("to_play"), stand_in=""
    )
    return (
        Game.objects.filter(seats__user=user)
        .filter(Q(status=Game.Status.IN_PROGRESS) | Q(status=Game.Status.WAITING))
        .annotate(my_turn=Q(status=Game.Status.IN_PROGRESS) & Exists(to_play_is_me))
        .prefetch_related("seats__user")
        .order_by("-my_turn", "-updated_at")
        .distinct()
    )


def watchable_games() -> QuerySet[Game]:
    return (
        Game.objects.filter(status=Game.Status.IN_PROGRESS, is_public=True)
        .prefetch_related("seats__user")
        .order_by("-updated_at")
    )


def player_stats(user) -> dict:
    """Finished games played and won by ``user``, with the win rate (one row, kept as games
    end: ``games.history.player_records``)."""
    stats = PlayerStats.objects.filter(user=user).first()
    played, won = (stats.finished, stats.won) if stats else (0, 0)
    return {"played": played, "won": won, "win_rate": won / played if played else None}


def recent_games_of(user, viewer=None, limit: int = 10) -> list[Game]:
    """The user's latest started games as ``viewer`` may see them (private games only to
    the people who sat at them), with the seats needed to show opponents and scores: the
    first slice of the history's index on the seats, whatever the number of games."""
    return games_page(user, viewer, per_page=limit).rows
