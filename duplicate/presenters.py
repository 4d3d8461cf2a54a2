"""What the duplicate's page and JSON show of a day."""

from __future__ import annotations

from datetime import date

from django.urls import reverse

from . import days
from .selectors import GameResults, day_results, entries_of, excluded_from, standings


def day_document(day: date, games: list[GameResults]) -> dict:
    """The day as JSON: each game's finished results (``matchpoints`` the raw sum against
    the others, ``percent`` that sum as a percentage)."""
    return {
        "date": day.isoformat(),
        "games": [
            {
                "number": results.number,
                "players": results.players,
                "won": results.winners,
                "results": [
                    {
                        "player": row.player,
                        "game_id": row.game_id,
                        "points": row.points,
                        "won": row.won,
                        "matchpoints": row.matchpoints,
                        "percent": round(row.percent, 2),
                    }
                    for row in results.rows
                ],
            }
            for results in games
        ],
    }


def _mine(entry) -> dict:
    if entry is None:
        return {"state": "new"}
    game = entry.game
    return {
        "state": "finished" if game.is_over else "playing",
        "game_id": game.pk,
        "url": game.get_absolute_url(),
        "replay_url": reverse("game_replay", args=[game.pk]),
    }


def day_context(day: date, user, *, today: date) -> dict:
    """The page's context: the games (yours, their results, their spread) and the table."""
    games = day_results(day)
    mine = entries_of(user, day)
    viewer_id = user.pk if user.is_authenticated else None
    shown = []
    for results in games:
        rows = [
            {
                "row": row,
                "is_you": row.user_id == viewer_id,
                "replay_url": reverse("game_replay", args=[row.game_id])
                if row.is_open or row.user_id == viewer_id
                else "",
            }
            for row in results.rows
        ]
        shown.append({"results": results, "rows": rows, "mine": _mine(mine.get(results.number))})
    table = standings(games, excluded=excluded_from(day=day))
    you = next((s for s in table if s.user_id == viewer_id), None)
    return {
        "day": day,
        "is_today": day == today,
        "closed": days.is_closed(day),
        "games": shown,
        "standings": [{"standing": s, "is_you": s.user_id == viewer_id} for s in table],
        "you": you,
        "players": len(table),
    }
