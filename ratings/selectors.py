"""Leaderboard standings (kept as rows by ``ratings.standings``, ranked by
``ratings.ranks``) and rating histories.

A page of a board is a range of ranks of its ranked lines, and the number of lines is kept on
the board: a page costs the same whatever its number and the size of the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, F, OuterRef, Q, QuerySet

from accounts.selectors import is_bot_account, public_name
from games.history.privacy import seen_by
from games.models import Game, Seat

from .models import (
    Leaderboard,
    PlayerRating,
    RankedLine,
    RatingEvent,
    Standing,
    display_rating,
    rating_label,
)
from .ranks import ranks_for_reading
from .rows import game_rating_moves, ratings_of
from .services import rated_events

# A seat (or a standing) held by a bot: one of the site's, or a bot account (a program). Games
# with one never count for the boards of games between people.
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
PAGE_SIZE = 50


def standings(board: Leaderboard) -> QuerySet[Standing]:
    """The lines of ``board`` that are listed: enough games, not excluded, of the kind of
    players it lists (unordered: see ``ORDER``)."""
    rows = (
        board.standings.filter(games__gte=board.min_games)
        .exclude(user__in=board.exclusions.values("user"))
        .select_related("rating", "user__profile")
    )
    if board.listed == Leaderboard.Listed.PEOPLE:
        rows = rows.exclude(BOT_SEAT)
    elif board.listed == Leaderboard.Listed.BOTS:
        rows = rows.filter(BOT_SEAT)
    return rows


@dataclass
class StandingsPage:
    rows: list[dict]
    number: int  # 1-based
    pages: int
    first_rank: int
    total: int
    fell_back: bool = False  # the page asked for does not exist: this is the nearest

    @property
    def is_first(self) -> bool:
        return self.number == 1

    @property
    def is_last(self) -> bool:
        return self.number >= self.pages


def standings_page(board: Leaderboard, page: int | str | None = None) -> StandingsPage:
    """Page ``page`` (a number, or ``"last"``) of ``board``'s standings: a range of ranks of
    its ranked lines (``ratings.ranks``), counted on the board row. The same two queries for
    page 1 and page 400, whatever the size of the board."""
    ranks_for_reading(board)
    pages = max(1, -(-board.lines // PAGE_SIZE))
    fell_back = False
    if page == "last":
        number = pages
    elif isinstance(page, int) and 1 <= page <= pages:
        number = page
    else:
        number = pages if isinstance(page, int) and page > pages else 1
        fell_back = page is not None
    start = (number - 1) * PAGE_SIZE
    lines = RankedLine.objects.filter(
        leaderboard=board, rank__gt=start, rank__lte=start + PAGE_SIZE
    ).select_related("user__profile", "rating").order_by("rank")
    rows = [ranked_row(line) for line in lines]
    return StandingsPage(
        rows=rows,
        number=number,
        pages=pages,
        first_rank=start + 1,
        total=board.lines,
        fell_back=fell_back,
    )


def standing_row(line: Standing, rank: int) -> dict:
    """A live line (a season being closed reads them), as ``ranked_row`` shows one."""
    games = line.games
    username = line.user.get_username() if line.user_id else ""
    return {
        "rank": rank,
        "rating": line.rating,
        "user_id": line.user_id,
        "username": username,
        "bot_account": bool(line.user_id) and is_bot_account(line.user),
        "label": rating_label(username, line.bot),
        "display": line.display,
        "games": games,
        "wins": line.wins,
        "win_rate": line.wins / games if games else 0.0,
        "last_played": line.last_played,
        "provisional": line.rating.is_provisional,
    }


def ranked_row(line: RankedLine) -> dict:
    games = line.games
    username = line.user.get_username() if line.user_id else ""
    return {
        "rank": line.rank,
        "user_id": line.user_id,
        "username": username,
        "bot_account": bool(line.user_id) and is_bot_account(line.user),
        "label": rating_label(username, line.bot),
        "display": display_rating(line.mu, line.sigma),
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
    # the id first, then a constant: with ``rating_id = (SELECT ...)`` the planner guessed
    # the average player's count and, for the heaviest, read and sorted all their events
    rating_id = PlayerRating.objects.filter(user=user).values_list("pk", flat=True).first()
    events = RatingEvent.objects.filter(rating_id=rating_id)
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
    for seat, mu_before, sigma_before, mu_after, sigma_after in game_rating_moves(game_id):
        after = display_rating(mu_after, sigma_after)
        before = display_rating(mu_before, sigma_before)
        changes[seat] = {"after": after, "delta": after - before}
    return changes


def leaving_cost(game_id: int, seat: int, game=None, seats=None) -> dict:
    """What the person in ``seat`` would lose by leaving the running rated game now: they
    would be ranked last, the others by their points so far (read only: nothing is rated).
    ``game`` and ``seats`` (in seat order): the rows as the caller has just read them."""
    if game is None:
        game = Game.objects.filter(pk=game_id).first()
    if seats is None:
        seats = list(Seat.objects.filter(game_id=game_id).order_by("number"))
    if game is None or not game.is_rated or not game.is_running or len(seats) != 3:
        return {}
    if any(row.is_empty for row in seats):
        return {}
    users, bots = {s.user_id for s in seats if s.user_id}, {s.bot for s in seats if s.is_bot}
    found = {(row.user_id, row.bot): row for row in ratings_of(users, bots)}
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
