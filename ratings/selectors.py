"""Leaderboard standings, computed from rating events in the board's window.

One query gives a whole page of standings, whatever the number of players: events are
grouped by rating, and each player's rating at the end of the window is the ``after`` value
of their last event in it.
"""

from __future__ import annotations

from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet, Subquery

from games.models import Seat
from games.selectors import seen_by

from .models import Leaderboard, PlayerRating, RatingEvent, display_rating


def board_events(board: Leaderboard) -> QuerySet[RatingEvent]:
    """The rating events of the games that count for ``board``."""
    events = RatingEvent.objects.all()
    if board.season_start:
        events = events.filter(game__finished_at__gte=board.season_start)
    if board.season_end:
        events = events.filter(game__finished_at__lt=board.season_end)
    if board.target:
        events = events.filter(game__target=board.target)
    has_bot = Exists(Seat.objects.filter(game=OuterRef("game")).exclude(bot=""))
    if board.opponents == Leaderboard.Opponents.HUMANS_ONLY:
        events = events.filter(~has_bot)
    elif board.opponents == Leaderboard.Opponents.WITH_BOTS:
        events = events.filter(has_bot)
    return events


def standings(board: Leaderboard) -> QuerySet[PlayerRating]:
    """Players on ``board``, best first, annotated with their standing in its window."""
    events = board_events(board)
    last = events.filter(rating=OuterRef("pk")).order_by("-game__finished_at", "-pk")
    rows = (
        PlayerRating.objects.filter(pk__in=events.values("rating"))
        .annotate(
            board_games=Count("events", filter=Q(events__in=events)),
            board_wins=Count("events", filter=Q(events__in=events, events__won=True)),
            last_played=Max("events__game__finished_at", filter=Q(events__in=events)),
            board_mu=Subquery(last.values("mu_after")[:1]),
            board_sigma=Subquery(last.values("sigma_after")[:1]),
        )
        .annotate(ordinal=F("board_mu") - 3 * F("board_sigma"))
        .filter(board_games__gte=board.min_games)
        .exclude(user__in=board.exclusions.values("user"))
        .select_related("user")
        .order_by("-ordinal", "pk")
    )
    if not board.list_bots:
        rows = rows.filter(bot="")
    return rows


def standing_row(rating: PlayerRating, rank: int) -> dict:
    games = rating.board_games
    return {
        "rank": rank,
        "rating": rating,
        "label": rating.label,
        "display": display_rating(rating.board_mu, rating.board_sigma),
        "games": games,
        "wins": rating.board_wins or 0,
        "win_rate": (rating.board_wins or 0) / games if games else 0.0,
        "last_played": rating.last_played,
        "provisional": rating.is_provisional,
    }


def active_boards() -> QuerySet[Leaderboard]:
    return Leaderboard.objects.filter(is_active=True, is_public=True)


def rating_history(user, viewer=None) -> QuerySet[RatingEvent]:
    """``user``'s rated games, latest first, as ``viewer`` may see them (private games
    only to the people who sat at them)."""
    events = RatingEvent.objects.filter(rating__user=user)
    if viewer is None or viewer.pk != user.pk:
        events = events.filter(seen_by(viewer, "game_id"))
    return events.select_related("game").order_by("-pk")


__all__ = ["active_boards", "board_events", "rating_history", "standing_row", "standings"]


def rating_changes(game_id: int) -> dict[int, dict]:
    """Each rated seat's shown rating after ``game_id`` and how much it moved, by seat
    (empty while the game is not rated yet, or if it is not rated at all)."""
    changes = {}
    for event in RatingEvent.objects.filter(game_id=game_id):
        after = display_rating(event.mu_after, event.sigma_after)
        before = display_rating(event.mu_before, event.sigma_before)
        changes[event.seat] = {"after": after, "delta": after - before}
    return changes
