"""Rating games with OpenSkill (Plackett-Luce) and recomputing every rating from history."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts.selectors import is_bot_account
from common.bulk_rows import rows_update
from games.engine.ranking import ranks_of
from games.models import Game, Seat
from games.table.loading import seats_of

from .locks import rating_lock_take
from .models import DEFAULT_MU, DEFAULT_SIGMA, PlayerRating, RatingEvent
from .rows import events_insert, game_locked, game_rated, ratings_locked
from .standings import standings_count

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
RATED_STATUSES = (Game.Status.FINISHED, Game.Status.ABANDONED)


def _rating_key(seat: Seat) -> tuple:
    return ("bot", seat.bot) if seat.is_bot else ("user", seat.user_id)


def _ratings_locked(seats: list[Seat]) -> list[PlayerRating]:
    """Each seat's rating row, in seat order, locked (in id order, so two games rated at once
    never wait on each other in a circle: bot levels share a row) and read in one statement
    when every player has a rating already; a first rated game makes its rows first, at the
    default (rows locked meanwhile are no risk: one lane rates at a time, ``ratings.queue``).
    Two seats of one bot level get the same row."""
    users = {seat.user_id for seat in seats if not seat.is_bot}
    bots = {seat.bot for seat in seats if seat.is_bot}

    def locked() -> dict[tuple, PlayerRating]:
        rows = ratings_locked(users, bots)
        return {("bot", r.bot) if r.bot else ("user", r.user_id): r for r in rows}

    found = locked()
    if len(found) < len(users) + len(bots):
        PlayerRating.objects.bulk_create(
            [PlayerRating(user_id=user_id) for user_id in users if ("user", user_id) not in found]
            + [PlayerRating(bot=bot) for bot in bots if ("bot", bot) not in found],
            ignore_conflicts=True,  # made meanwhile by another game's rating
        )
        found = locked()
    return [found[_rating_key(seat)] for seat in seats]


@transaction.atomic(savepoint=False)  # a caller's transaction (the queue's) has its own
def game_rate(
    *, game_id: int, count_standings: bool = True, lock_held: bool = False
) -> list[RatingEvent]:
    """Rate a finished (or abandoned) game once; return its rating events (none if unrated).

    A rating that sits in two seats (two bots of one level) moves by the mean of its seats.
    The game is counted on the leaderboards' standings too (unless ``count_standings`` is
    off: a recompute rebuilds them once at its end). ``lock_held``: the caller's
    transaction holds the rating lock shared already (the queue's lane).
    """
    if not lock_held:
        rating_lock_take(exclusive=False)
    game = game_locked(game_id)
    if game.status not in RATED_STATUSES or not game.was_dealt or not game.is_rated:
        return []
    # Not read with the game: a statement that waited for the game's lock sees the rating
    # committed meanwhile only in a statement of its own (two runners rating one game).
    if game_rated(game.pk):
        return []  # already rated: rating twice would count the game twice
    seats = seats_of(game)
    if any(seat.is_empty for seat in seats):
        return []
    ratings = _ratings_locked(seats)
    leavers = {seat.number for seat in seats if seat.stand_in}
    if game.abandoned_by is not None:
        leavers.add(game.abandoned_by)
    events = rated_events(
        game_id=game.pk,
        ratings=ratings,
        scores=[seat.score for seat in seats],
        winner=game.winner_seat,
        leavers=leavers,
    )
    events_insert(events)
    moved, now = ratings_moved(events), timezone.now()
    for rating in moved:
        rating.updated_at = now
    rows_update(PlayerRating, moved, ("mu", "sigma", "games", "wins", "updated_at"))
    if count_standings:
        standings_count(
            events=events,
            finished_at=game.finished_at,
            target=game.target,
            has_bot=any(seat.is_bot or is_bot_account(seat.user) for seat in seats),
        )
    return events


def rated_events(*, game_id, ratings, scores, winner, leavers, created_at=None) -> list:
    """The rating events of one game, seat by seat, from the players' ratings before it
    (``ratings``, by seat): the rule of rating shared by ``game_rate``, the recompute and the
    seeder of the benchmarks. Nothing is saved."""
    ranks = ranks_of(scores, winner, leavers)
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
    return [
        RatingEvent(
            game_id=game_id,
            rating=rating,
            seat=number,
            rank=rank,
            score=score,
            won=number == winner,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=team[0].mu,
            sigma_after=team[0].sigma,
            created_at=created_at,
        )
        for number, (rating, rank, score, team) in enumerate(
            zip(ratings, ranks, scores, teams, strict=True)
        )
    ]


def ratings_moved(events: list[RatingEvent]) -> list[PlayerRating]:
    """Move the events' ratings (in memory) to where one game leaves them; return them.

    A rating in two seats of the game moves to the mean of its seats' results."""
    by_rating: dict[int, list[RatingEvent]] = {}
    for event in events:
        by_rating.setdefault(id(event.rating), []).append(event)
    moved = []
    for group in by_rating.values():
        rating = group[0].rating
        rating.mu = sum(e.mu_after for e in group) / len(group)
        rating.sigma = sum(e.sigma_after for e in group) / len(group)
        rating.games += len(group)
        rating.wins += sum(e.won for e in group)
        moved.append(rating)
    return moved


@transaction.atomic
def season_close(*, board) -> int:
    """Freeze ``board``'s standings into stored rows; return how many were stored.

    Later rating changes no longer alter a closed season. Closing again refreezes.
    """
    from .models import FrozenStanding
    from .selectors import ORDER, standing_row, standings

    board.frozen.all().delete()
    lines = standings(board).order_by(*ORDER).iterator(chunk_size=2000)
    rows = [standing_row(line, rank) for rank, line in enumerate(lines, 1)]
    FrozenStanding.objects.bulk_create(
        FrozenStanding(
            leaderboard=board,
            rank=row["rank"],
            rating=row["rating"],
            label=row["label"],
            display=row["display"],
            games=row["games"],
            wins=row["wins"],
            last_played=row["last_played"],
        )
        for row in rows
    )
    board.closed_at = timezone.now()
    board.save(update_fields=["closed_at"])
    return len(rows)
