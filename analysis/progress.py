"""A person's progress on their player page: accuracy in their last analysed games."""

from __future__ import annotations

from statistics import fmean

from games.history.privacy import seen_by

from .graph import trend_graph
from .models import SeatAccuracy

GAMES = 50


def progress(player, viewer) -> dict | None:
    """Accuracy per game (the last ``GAMES`` analysed, that ``viewer`` may see), its average
    and the mistakes and blunders in them; one query. None without any analysed game."""
    rows = list(
        SeatAccuracy.objects.filter(user=player, accuracy__isnull=False)
        .filter(seen_by(viewer, "game_id"))
        .order_by("-finished_at", "-game_id")
        .values("game_id", "accuracy", "mistakes", "blunders", "finished_at")[:GAMES]
    )
    if not rows:
        return None
    rows.reverse()  # oldest first, as the graph reads
    values = [row["accuracy"] for row in rows]
    return {
        "games": rows,
        "count": len(rows),
        "average": round(fmean(values), 1),
        "best": max(values),
        "worst": min(values),
        "last": values[-1],
        "mistakes": sum(row["mistakes"] for row in rows),
        "blunders": sum(row["blunders"] for row in rows),
        "graph": trend_graph(values),
    }
