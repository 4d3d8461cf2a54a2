"""Leaderboard ranks kept as rows: pages by number at the cost of page 1, the count on the
board, trailing the live standings by a bounded time, and one ranker at a time."""

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings import selectors
from ratings.models import (
    Leaderboard,
    LeaderboardExclusion,
    PlayerRating,
    RankedLine,
    RatingEvent,
    Standing,
)
from ratings.ranks import ranks_refresh, ranks_refresh_due

pytestmark = pytest.mark.django_db


def board_of(django_user_model, people: int, **options) -> Leaderboard:
    """A board with ``people`` lines: person i has ordinal i (so the last made is first)."""
    board = Leaderboard.objects.create(name="Main", slug="main", **options)
    users = django_user_model.objects.bulk_create(
        [django_user_model(username=f"p{i:03}") for i in range(people)]
    )
    ratings = PlayerRating.objects.bulk_create([PlayerRating(user=user) for user in users])
    Standing.objects.bulk_create(
        Standing(
            leaderboard=board,
            rating=rating,
            user=rating.user,
            mu=25.0 + i,
            sigma=1.0,
            ordinal=22.0 + i,
            games=1 + i % 3,
            wins=i % 2,
        )
        for i, rating in enumerate(ratings)
    )
    return board


def names(page) -> list[str]:
    return [row["username"] for row in page.rows]


def test_a_page_by_number_is_a_range_of_ranks_and_costs_what_page_one_does(django_user_model):
    board = board_of(django_user_model, 130)
    first = selectors.standings_page(board, 1)  # ranks the board (never ranked)
    assert first.total == 130 and first.pages == 3 and names(first)[:2] == ["p129", "p128"]
    counts = []
    for page in (1, 2, 3, "last"):
        with CaptureQueriesContext(connection) as queries:
            found = selectors.standings_page(Leaderboard.objects.get(pk=board.pk), page)
        counts.append(len(queries))
    assert len(set(counts)) == 1, counts
    third = selectors.standings_page(board, 3)
    assert [row["rank"] for row in third.rows] == list(range(101, 131))
    assert names(third)[-1] == "p000" and third.is_last and not found.fell_back
    beyond = selectors.standings_page(board, 400)
    assert beyond.fell_back and beyond.number == 3  # the nearest page that exists


def test_the_board_row_counts_the_listed_lines_after_minimum_and_exclusions(
    django_user_model,
):
    board = board_of(django_user_model, 12, min_games=2)
    assert selectors.standings_page(board).total == 8  # games 1 + i % 3: four have one game
    LeaderboardExclusion.objects.create(
        leaderboard=board, user=django_user_model.objects.get(username="p011"), reason="x"
    )
    board.refresh_from_db()
    page = selectors.standings_page(board)  # an exclusion re-ranks before the next page
    assert page.total == 7 and "p011" not in names(page)
    board.min_games = 1
    board.save()
    assert selectors.standings_page(board).total == 11


def rate_someone_up(board, username, ordinal):
    """A new rated game moves someone to the top (a rating event: the boards are behind)."""
    line = Standing.objects.get(leaderboard=board, user__username=username)
    Standing.objects.filter(pk=line.pk).update(ordinal=ordinal, mu=ordinal + 3)
    from games.models import Game

    game = Game.objects.create(target=10, created_by=line.user)
    RatingEvent.objects.create(
        game=game,
        rating=line.rating,
        seat=0,
        rank=1,
        score=10,
        mu_before=25.0,
        sigma_before=1.0,
        mu_after=1003.0,
        sigma_after=1.0,
    )


def test_ranks_trail_the_standings_until_a_runner_or_a_stale_page_ranks_again(
    django_user_model, settings
):
    settings.COINS_STANDINGS_STALE = 300
    settings.COINS_STANDINGS_REFRESH = 15
    board = board_of(django_user_model, 5)
    assert names(selectors.standings_page(board))[0] == "p004"
    rate_someone_up(board, "p000", 1000.0)
    assert names(selectors.standings_page(board))[0] == "p004"  # ranked a moment ago
    assert ranks_refresh_due() == 0  # nor do the runners re-rank before 15 s
    Leaderboard.objects.filter(pk=board.pk).update(ranked_at=timezone.now() - timedelta(seconds=16))
    assert ranks_refresh_due() == 1
    board.refresh_from_db()
    assert names(selectors.standings_page(board))[0] == "p000"
    assert ranks_refresh_due() == 0  # not behind any more
    rate_someone_up(board, "p001", 2000.0)
    Leaderboard.objects.filter(pk=board.pk).update(
        ranked_at=timezone.now() - timedelta(seconds=301)
    )
    board.refresh_from_db()  # no runner for five minutes: the page ranks it itself
    assert names(selectors.standings_page(board))[:2] == ["p001", "p000"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_fifty_rankers_at_once_leave_one_consistent_ranking(django_user_model):
    board = board_of(django_user_model, 60)
    start = threading.Barrier(50)
    errors = []

    def rank(wait):
        try:
            start.wait()
            ranks_refresh(Leaderboard.objects.get(pk=board.pk), wait=wait)
        except Exception as error:
            errors.append(error)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=rank, args=(i % 2 == 0,)) for i in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    board.refresh_from_db()
    ranks = sorted(RankedLine.objects.filter(leaderboard=board).values_list("rank", flat=True))
    assert board.lines == 60 and ranks == list(range(1, 61))


@pytest.mark.skipif(connection.vendor != "postgresql", reason="query plans: PostgreSQL")
def test_a_heavy_players_history_walks_their_index_from_the_newest(django_user_model):
    """The rating id is a constant in the query (not ``= (SELECT ...)``, where the planner
    guessed the average player's count and read and sorted all of the heaviest's events):
    with statistics showing one player holds most events, their page is read from the
    newest and stops at 20 (no sort of them all), and nobody's history scans the table."""
    from games.models import Game
    from ratings.selectors import rating_history

    heavy, light = (django_user_model.objects.create_user(name) for name in ("heavy", "light"))
    ratings = [PlayerRating.objects.create(user=user) for user in (heavy, light)]
    games = Game.objects.bulk_create(Game(target=10, created_by=heavy) for _ in range(3000))
    RatingEvent.objects.bulk_create(
        RatingEvent(
            game=game,
            rating=ratings[0] if i % 50 else ratings[1],
            seat=0,
            rank=1,
            score=10,
            mu_before=25,
            sigma_before=8,
            mu_after=25,
            sigma_after=8,
        )
        for i, game in enumerate(games)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ratings_ratingevent")
    plans = {}
    for user in (heavy, light):
        sql, params = rating_history(user, user)[:20].query.sql_with_params()
        assert "SELECT" not in sql.split("WHERE", 1)[1]  # no subquery for the rating
        with connection.cursor() as cursor:
            cursor.execute("EXPLAIN " + sql, params)
            plans[user.username] = "\n".join(row[0] for row in cursor.fetchall())
    assert "Sort" not in plans["heavy"], plans["heavy"]
    assert all("Seq Scan on ratings_ratingevent" not in plan for plan in plans.values()), plans


def test_a_recompute_has_every_board_ranked_again(django_user_model):
    """The swap updates rating events in place (their ids stay): the boards are told."""
    from ratings.recompute import ratings_recompute

    board = board_of(django_user_model, 3)
    selectors.standings_page(board)
    ratings_recompute()
    board.refresh_from_db()
    assert board.ranked_at is None
