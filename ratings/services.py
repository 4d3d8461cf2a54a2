"""Rating games with OpenSkill (Plackett-Luce) and recomputing every rating from history."""

from __future__ import annotations

from django.db import transaction
from openskill.models import PlackettLuce

from games.engine.ranking import ranks_of
from games.models import Game, Seat

from .models import DEFAULT_MU, DEFAULT_SIGMA, PlayerRating, RatingEvent
from .standings import standings_count, standings_rebuild

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)
RATED_STATUSES = (Game.Status.FINISHED, Game.Status.ABANDONED)


def rating_of(seat: Seat) -> PlayerRating:
    if seat.is_bot:
        rating, _ = PlayerRating.objects.get_or_create(bot=seat.bot)
    else:
        rating, _ = PlayerRating.objects.get_or_create(user_id=seat.user_id)
    return rating


@transaction.atomic
def game_rate(*, game_id: int, count_standings: bool = True) -> list[RatingEvent]:
    """Rate a finished (or abandoned) game once; return its rating events (none if unrated).

    A rating that sits in two seats (two bots of one level) moves by the mean of its seats.
    The game is counted on the leaderboards' standings too (unless ``count_standings`` is
    off: a recompute rebuilds them once at its end).
    """
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status not in RATED_STATUSES or not game.was_dealt or not game.is_rated:
        return []
    if RatingEvent.objects.filter(game=game).exists():
        return []  # already rated: rating twice would count the game twice
    seats = list(game.seats.order_by("number"))
    if any(seat.is_empty for seat in seats):
        return []
    ratings = _locked([rating_of(seat) for seat in seats])
    scores = [seat.score for seat in seats]
    leavers = {seat.number for seat in seats if seat.stand_in}
    if game.abandoned_by is not None:
        leavers.add(game.abandoned_by)
    ranks = ranks_of(scores, game.winner_seat, leavers)
    teams = MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings], ranks=ranks)
    events = [
        RatingEvent(
            game=game,
            rating=rating,
            seat=seat.number,
            rank=rank,
            score=seat.score,
            won=seat.number == game.winner_seat,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=team[0].mu,
            sigma_after=team[0].sigma,
        )
        for seat, rating, rank, team in zip(seats, ratings, ranks, teams, strict=True)
    ]
    RatingEvent.objects.bulk_create(events)
    _apply(events)
    if count_standings:
        standings_count(
            events=events,
            finished_at=game.finished_at,
            target=game.target,
            has_bot=any(seat.is_bot for seat in seats),
        )
    return events


def _locked(ratings: list[PlayerRating]) -> list[PlayerRating]:
    """The same rating rows, locked and read again: games rated at once by two processes
    (bot levels share one row) must not overwrite each other. Locked in id order, so two
    ratings never wait on each other in a circle."""
    rows = PlayerRating.objects.select_for_update().filter(pk__in={r.pk for r in ratings})
    by_id = {row.pk: row for row in rows.order_by("pk")}
    return [by_id[rating.pk] for rating in ratings]


def _apply(events: list[RatingEvent]) -> None:
    by_rating: dict[int, list[RatingEvent]] = {}
    for event in events:
        by_rating.setdefault(event.rating.pk, []).append(event)
    for group in by_rating.values():
        rating = group[0].rating
        rating.mu = sum(e.mu_after for e in group) / len(group)
        rating.sigma = sum(e.sigma_after for e in group) / len(group)
        rating.games += len(group)
        rating.wins += sum(e.won for e in group)
        rating.save(update_fields=["mu", "sigma", "games", "wins", "updated_at"])


@transaction.atomic
def ratings_recompute() -> int:
    """Rebuild every rating from the match history, in the order games ended; idempotent.

    Return the number of games rated.
    """
    RatingEvent.objects.all().delete()
    PlayerRating.objects.update(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, games=0, wins=0)
    rated = _rate_in_order(_ratable_games())
    standings_rebuild()
    return rated


def _ratable_games():
    return Game.objects.filter(status__in=RATED_STATUSES, started_at__isnull=False, is_rated=True)


def _rate_in_order(games) -> int:
    """Rate ``games`` in the order they ended; return how many were rated."""
    ids = games.order_by("finished_at", "pk").values_list("pk", flat=True)
    return sum(bool(game_rate(game_id=game_id, count_standings=False)) for game_id in ids)


@transaction.atomic
def season_close(*, board) -> int:
    """Freeze ``board``'s standings into stored rows; return how many were stored.

    Later rating changes no longer alter a closed season. Closing again refreezes.
    """
    from django.utils import timezone

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
