"""Who may see a game in a list: public games to everyone, private ones to the people who sat
at them. Every list of games (history, profiles, rating histories, leaderboards) filters
by this one rule."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from games.models import Seat


def seen_by(viewer, game_field: str = "pk") -> Q:
    """The privacy rule for lists: public games, and private ones ``viewer`` sat at.
    ``game_field`` points from the listed rows to their game (``"game_id"`` for events)."""
    public = "is_public" if game_field == "pk" else "game__is_public"
    if viewer is None or not viewer.is_authenticated:
        return Q(**{public: True})
    seated = Exists(Seat.objects.filter(game=OuterRef(game_field), user=viewer))
    return Q(**{public: True}) | Q(seated)
