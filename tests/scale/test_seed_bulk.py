"""``seed_scale``'s fast path: worker processes writing chunks of games with the game tables'
indexes set aside stores exactly what one process stores with them in place, and puts every
index and unique constraint back as it was."""

import pytest
from django.db import connection

from games.models import Game, Play, Seat
from games.table.loading import game_load
from lab.benchmarks.seed import Seeder, boards_ensure, people_make
from lab.benchmarks.seed_bulk import secondary_indexes
from ratings.models import Standing
from ratings.standings import standings_rebuild

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY and index builds"),
]


def games_as_played(first: int, count: int) -> list[tuple]:
    """What the games ``first``.. hold, apart from their ids: seeds, seats, every card."""
    games = Game.objects.filter(pk__gte=first).order_by("pk")[:count]
    return [
        (
            game.seed,
            game.moves,
            game.winner_seat,
            game.status,
            list(Seat.objects.filter(game=game).order_by("number").values_list("user", "bot")),
            list(Play.objects.filter(game=game).order_by("sequence").values_list("card", "seat")),
        )
        for game in games
    ]


def test_workers_and_indexes_set_aside_store_what_one_process_stores():
    people = people_make(40, "bulk")
    before = secondary_indexes()
    assert len(before) > 10  # the game tables' indexes and unique constraints
    Seeder(games=30, people=people, seed="same", workers=1, bulk=False).run()
    summary = Seeder(games=30, people=people, seed="same", workers=2, bulk=True, chunk=7).run()
    assert summary["workers"] == 2 and summary["bulk"] is True

    assert secondary_indexes() == before
    assert games_as_played(31, 30) == games_as_played(1, 30)
    assert Play.objects.values("id").distinct().count() == Play.objects.count()
    finished = Game.objects.filter(pk__gt=30, status=Game.Status.FINISHED).first()
    assert game_load(finished).state.winner == finished.winner_seat  # the rows replay it


def test_a_failed_bulk_load_still_builds_every_index_again(monkeypatch):
    people = people_make(10, "fail")
    before = secondary_indexes()
    seeder = Seeder(games=5, people=people, seed="x", workers=1, bulk=True)

    def broken(start, stop):
        raise RuntimeError("the load broke")

    monkeypatch.setattr(seeder, "chunk_write", broken)
    with pytest.raises(RuntimeError):
        seeder.run()
    assert secondary_indexes() == before


def test_standings_counted_while_rating_are_the_ones_the_events_rebuild():
    """A fresh database's seed counts the standings as it rates (beside the index builds);
    they are the lines ``standings_rebuild`` reads back from the rating events."""
    boards_ensure()
    people = people_make(12, "lines")
    summary = Seeder(games=60, people=people, seed="lines", workers=1, bulk=True).run()
    fields = ("leaderboard", "rating", "user", "bot", "mu", "sigma", "ordinal", "games", "wins")
    fields += ("last_played",)

    def lines():
        return sorted(Standing.objects.values_list(*fields), key=lambda row: row[:2])

    counted = lines()
    assert summary["standings"] == len(counted) > 12  # every board, people and bots
    assert standings_rebuild() == len(counted)
    assert lines() == counted
