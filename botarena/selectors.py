"""The arena's ranking (``/bots/``): every entrant with its arena games, wins, win rate and
its 95% interval, and its rating. Three queries whatever the number of games: the
entrants (with their accounts, profiles and ratings), and the levels' ratings."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from accounts.selectors import public_name
from games.bots import LEVEL_BOTS, bot_label
from ratings.models import PlayerRating, display_rating

from .models import Entrant
from .stats import wilson


@dataclass
class BotLine:
    rank: int
    name: str
    username: str  # "" for a site level
    owner: str
    status: str
    status_label: str
    games: int
    wins: int
    rate: float | None  # 0..100, None before any game
    low: float
    high: float
    rating: int | None


def _rating(row: PlayerRating | None) -> int | None:
    return display_rating(row.mu, row.sigma) if row is not None else None


def bot_lines() -> list[BotLine]:
    """Entrants best first: by rating (none last), then wins, then fewest games; the banned
    are not listed."""
    entrants = list(
        Entrant.objects.exclude(status=Entrant.Status.BANNED).select_related(
            "user__profile", "user__rating"
        )
    )
    levels = {r.bot: r for r in PlayerRating.objects.filter(bot__in=list(LEVEL_BOTS.values()))}
    lines = []
    for entrant in entrants:
        if entrant.user_id:
            rating = getattr(entrant.user, "rating", None)
            name, username = public_name(entrant.user), entrant.user.get_username()
            owner = entrant.owner
        else:
            rating = levels.get(LEVEL_BOTS.get(entrant.level, ""))
            level = bot_label(LEVEL_BOTS.get(entrant.level, ""))
            name, username, owner = _("Bot (%(level)s)") % {"level": level}, "", "Coins"
        low, high = wilson(entrant.wins, entrant.played)
        lines.append(
            BotLine(
                rank=0,
                name=name,
                username=username,
                owner=owner,
                status=entrant.status,
                status_label=entrant.get_status_display(),
                games=entrant.played,
                wins=entrant.wins,
                rate=100 * entrant.wins / entrant.played if entrant.played else None,
                low=100 * low,
                high=100 * high,
                rating=_rating(rating),
            )
        )
    lines.sort(key=lambda line: (line.rating is None, -(line.rating or 0), -line.wins, line.games))
    for rank, line in enumerate(lines, start=1):
        line.rank = rank
    return lines
