"""Reads: standings (with their documented tie-breaks) and a person's table."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Game, Seat

from .models import Entry, Tournament, TournamentExclusion

# Standings: points, then wins, then card points taken over all games, then fewer games
# played (the same points in fewer games), then who joined first.
STANDINGS_ORDER = ("-points", "-wins", "-game_points", "games", "joined_at", "pk")


def _not_excluded(entries: QuerySet[Entry], tournament: Tournament) -> QuerySet[Entry]:
    excluded = TournamentExclusion.objects.filter(tournament=tournament).values("user")
    return entries.exclude(user__in=excluded)


def standings(tournament: Tournament) -> QuerySet[Entry]:
    """Every entry but the removed and the excluded ones, best first."""
    entries = Entry.objects.filter(tournament=tournament, removed=False)
    return _not_excluded(entries, tournament).select_related("user").order_by(*STANDINGS_ORDER)


def active_entries(tournament: Tournament) -> QuerySet[Entry]:
    """The entries that are paired and count against the entry limit: neither withdrawn,
    removed nor excluded."""
    entries = Entry.objects.filter(tournament=tournament, withdrawn=False, removed=False)
    return _not_excluded(entries, tournament)


def current_table(tournament: Tournament, user) -> Game | None:
    """The tournament game ``user`` is playing now, if any."""
    if not user.is_authenticated:
        return None
    seat = (
        Seat.objects.filter(
            user=user,
            game__tournament_game__tournament=tournament,
            game__tournament_game__scored=False,
            game__status=Game.Status.IN_PROGRESS,
        )
        .select_related("game")
        .first()
    )
    return seat.game if seat else None
