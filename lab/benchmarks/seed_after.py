"""After the games of ``seed_scale`` are in: the id sequences past them, the players'
kept stats and their ratings, rated in the order the games ended."""

from __future__ import annotations

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection

from common.bulk_rows import rows_insert, rows_update
from games.models import PlayerStats
from ratings.models import PlayerRating, RatingEvent
from ratings.recompute import EndedGame, rating_key, ratings_fetch, ratings_in_order
from ratings.standings import StandingsBuilt


def sequences_reset() -> None:
    models = [
        apps.get_model(*name.split("."))
        for name in (
            "games.Game",
            "games.Seat",
            "games.Hand",
            "games.Trick",
            "games.Play",
            "ratings.RatingEvent",
            "ratings.PlayerRating",
        )
    ]
    statements = connection.ops.sequence_reset_sql(no_style(), models)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def stats_seed(stats: dict[int, list[int]]) -> None:
    """Add the seeded games to the players' kept stats."""
    have = {s.user_id: s for s in PlayerStats.objects.filter(user_id__in=list(stats))}
    new = []
    for user, (finished, won, abandoned) in stats.items():
        row = have.get(user)
        if row is None:
            new.append(PlayerStats(user_id=user, finished=finished, won=won, abandoned=abandoned))
        else:
            row.finished += finished
            row.won += won
            row.abandoned += abandoned
    PlayerStats.objects.bulk_create(new, batch_size=2000)
    rows_update(PlayerStats, list(have.values()), ("finished", "won", "abandoned"))


def ratings_seed(ended: list[tuple], standings: StandingsBuilt | None = None) -> int:
    """Rate the seeded games in the order they ended, by the rule ``game_rate`` follows
    (``ratings.recompute.ratings_in_order``), writing the events in bulk; count each game on
    ``standings`` if given. ``ended``: (finished, game id, seating, scores, winner, leaver,
    target) of each rated game."""
    ended.sort(key=lambda item: (item[0], item[1]))
    ratings = ratings_fetch(
        {rating_key(user, bot) for _f, _g, seating, *_ in ended for user, bot, _p in seating}
    )
    games = (
        EndedGame(
            game_id=game_id,
            players=tuple((user, bot) for user, bot, _p in seating),
            scores=tuple(scores),
            winner=winner,
            leavers=frozenset() if leaver is None else frozenset({leaver}),
        )
        for _finished, game_id, seating, scores, winner, leaver, _target in ended
    )
    batch = []
    rated = ratings_in_order(games, ratings, created_at=None)
    for (finished, _id, seating, *_, target), events in zip(ended, rated, strict=True):
        for event in events:
            event.created_at = finished
        batch += events
        if standings is not None:
            standings.add(
                events=[
                    (e.rating_id, e.rating.user_id, e.rating.bot, e.won, e.mu_after, e.sigma_after)
                    for e in events
                ],
                finished_at=finished,
                target=target,
                has_bot=any(bot for _user, bot, _p in seating),
            )
        if len(batch) >= 20_000:
            rows_insert(RatingEvent, batch, with_pk=False)
            batch = []
    rows_insert(RatingEvent, batch, with_pk=False)
    rows_update(PlayerRating, list(ratings.values()), ("mu", "sigma", "games", "wins"))
    return len(ended)
