"""Leaderboard standings (kept as rows by ``ratings.standings``) and rating histories.

A page of a board is one slice of the ``standing_order`` index after a cursor; its ranks come
from counting the listed lines above it, which grows with the number of players on the board,
never with the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery

from accounts.selectors import is_bot_account, public_name
from common.paging import Keys, SeekPage, load_float, seek
from games.history.privacy import seen_by
from games.models import Game, Seat

from .models import Leaderboard, PlayerRating, RatingEvent, Standing, display_rating
from .services import rated_events

# A seat held by a bot: one of the site's, or a bot account (a program). Games with one never
# count for the boards of games between people.
BOT_SEAT = ~Q(bot="") | Q(user__profile__is_bot=True)


def board_events(board: Leaderboard) -> QuerySet[RatingEvent]:
    """The rating events of the games that count for ``board``."""
    events = RatingEvent.objects.all()
    if board.season_start:
        events = events.filter(game__finished_at__gte=board.season_start)
    if board.season_end:
        events = events.filter(game__finished_at__lt=board.season_end)
    if board.target:
        events = events.filter(game__target=board.target)
    has_bot = Exists(Seat.objects.filter(Q(game=OuterRef("game")), BOT_SEAT))
    if board.opponents == Leaderboard.Opponents.HUMANS_ONLY:
        events = events.filter(~has_bot)
    elif board.opponents == Leaderboard.Opponents.WITH_BOTS:
        events = events.filter(has_bot)
    return events


ORDER = ("-ordinal", "-rating_id")  # best first; the ``standing_order`` index
KEYS = Keys("ordinal", "rating_id", repr, load_float)
PAGE_SIZE = 50


def standings(board: Leaderboard) -> QuerySet[Standing]:
    """The lines of ``board`` that are listed: enough games, not excluded, bots if listed
    (unordered: see ``ORDER``)."""
    rows = (
        board.standings.filter(games__gte=board.min_games)
        .exclude(user__in=board.exclusions.values("user"))
        .select_related("rating", "user__profile")
    )
    if not board.list_bots:  # neither the site's bots nor bot accounts
        rows = rows.filter(bot="").exclude(user__profile__is_bot=True)
    return rows


@dataclass
class StandingsPage:
    rows: list[dict]
    page: SeekPage
    first_rank: int
    total: int


def standings_page(
    board: Leaderboard, *, after=None, before=None, last=False, page: int | None = None
) -> StandingsPage:
    """One page of ``board``'s standings: one slice of its index, after a cursor (``page``
    N jumps to the N-th slice of 50), then the ranks and the number of lines listed in one
    count over the board's lines. Two queries whatever the page and the size of history."""
    listed = standings(board)
    found, past_end = None, False
    if page is not None and page > 1 and not (after or before or last):
        start = (page - 1) * PAGE_SIZE
        # the lines skipped are read from the index alone; only the page's join the others
        slice_ = listed.order_by(*ORDER).values("pk")[start : start + PAGE_SIZE + 1]
        rows = list(listed.filter(pk__in=slice_).order_by(*ORDER))
        if rows:
            more = len(rows) > PAGE_SIZE
            rows = rows[:PAGE_SIZE]
            found = SeekPage(
                rows=rows,
                before=KEYS.cursor(rows[0]),
                after=KEYS.cursor(rows[-1]) if more else "",
                is_first=False,
                is_last=not more,
            )
        else:
            last = past_end = True  # past the end: the last page
    if found is None:
        found = seek(listed, KEYS, PAGE_SIZE, after=after, before=before, last=last)
        found.fell_back = found.fell_back or past_end
    if not found.rows:
        return StandingsPage(rows=[], page=found, first_rank=1, total=0)
    first = found.rows[0]
    counts = listed.aggregate(
        total=Count("pk"), ahead=Count("pk", filter=KEYS.above((first.ordinal, first.rating_id)))
    )
    ahead = counts["ahead"]
    rows = [standing_row(line, ahead + i) for i, line in enumerate(found.rows, 1)]
    return StandingsPage(rows=rows, page=found, first_rank=ahead + 1, total=counts["total"])


def standing_row(line: Standing, rank: int) -> dict:
    games = line.games
    username = line.user.get_username() if line.user_id else ""
    return {
        "rank": rank,
        "rating": line.rating,
        "user_id": line.user_id,
        "username": username,
        "bot_account": bool(line.user_id) and is_bot_account(line.user),
        "label": username or line.rating.label,
        "display": line.display,
        "games": games,
        "wins": line.wins,
        "win_rate": line.wins / games if games else 0.0,
        "last_played": line.last_played,
        "provisional": line.rating.is_provisional,
    }


def active_boards() -> QuerySet[Leaderboard]:
    return Leaderboard.objects.filter(is_active=True, is_public=True)


def rating_history(user, viewer=None) -> QuerySet[RatingEvent]:
    """``user``'s rated games, latest first, as ``viewer`` may see them (private games
    only to the people who sat at them)."""
    rating = PlayerRating.objects.filter(user=user).values("pk")[:1]
    events = RatingEvent.objects.filter(rating_id=Subquery(rating))
    if viewer is None or viewer.pk != user.pk:
        events = events.filter(seen_by(viewer, "game_id"))
    return events.select_related("game").order_by("-pk")


__all__ = [
    "active_boards",
    "board_events",
    "rating_history",
    "standing_row",
    "standings",
    "standings_page",
]


def rating_changes(game_id: int) -> dict[int, dict]:
    """Each rated seat's shown rating after ``game_id`` and how much it moved, by seat
    (empty while the game is not rated yet, or if it is not rated at all)."""
    changes = {}
    for event in RatingEvent.objects.filter(game_id=game_id):
        after = display_rating(event.mu_after, event.sigma_after)
        before = display_rating(event.mu_before, event.sigma_before)
        changes[event.seat] = {"after": after, "delta": after - before}
    return changes


def leaving_cost(game_id: int, seat: int) -> dict:
    """What the person in ``seat`` would lose by leaving the running rated game now: they
    would be ranked last, the others by their points so far (read only: nothing is rated).
    """
    game = Game.objects.filter(pk=game_id).first()
    seats = list(Seat.objects.filter(game_id=game_id).order_by("number"))
    if game is None or not game.is_rated or not game.is_running or len(seats) != 3:
        return {}
    if any(row.is_empty for row in seats):
        return {}
    found = {
        (row.user_id, row.bot): row
        for row in PlayerRating.objects.filter(
            Q(user_id__in=[s.user_id for s in seats if s.user_id])
            | Q(bot__in=[s.bot for s in seats if s.is_bot])
        )
    }
    ratings = [
        found.get((None, s.bot) if s.is_bot else (s.user_id, "")) or PlayerRating()
        for s in seats
    ]
    events = rated_events(  # the rule game_rate applies, to the game as it stands
        game_id=game_id,
        ratings=ratings,
        scores=[s.score for s in seats],
        winner=None,
        leavers={seat} | {s.number for s in seats if s.stand_in},
    )
    mine = events[seat]
    after = display_rating(mine.mu_after, mine.sigma_after)
    return {"delta": after - display_rating(mine.mu_before, mine.sigma_before)}


def highest_ratings(limit: int = 20) -> list[dict]:
    """The people rated highest (after at least one rated game), for a site whose staff run
    no leaderboard yet: everyone has a rating from their first rated game."""
    rows = (
        PlayerRating.objects.filter(user__isnull=False, games__gt=0)
        .select_related("user__profile")
        .order_by(F("mu") - 3 * F("sigma"))
        .reverse()[:limit]
    )
    return [
        {
            "username": row.user.get_username(),
            "name": public_name(row.user),
            "rating": display_rating(row.mu, row.sigma),
            "games": row.games,
        }
        for row in rows
    ]
