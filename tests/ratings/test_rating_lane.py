"""The ratings lane: finished games wait in a queue, and lanes rate them once each, in the
order they ended, never waiting for the rating lock."""

import threading
from datetime import timedelta
from itertools import pairwise

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games.models import Game
from ratings.locks import rating_lock_take
from ratings.models import PlayerRating, RatingEvent, RatingQueue
from ratings.queue import MAX_ATTEMPTS, game_queue, queued_rate, queued_rate_next
from tests.games.helpers import at_once
from tests.ratings.test_ratings import finish

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="several lanes at once need PostgreSQL"
)


def unrated(*games: Game) -> None:
    """The games as if their aftermath had just queued them: no rating yet."""
    RatingEvent.objects.all().delete()
    PlayerRating.objects.all().update(games=0, wins=0, mu=25.0, sigma=25.0 / 3)
    for game in games:
        game_queue(game_id=game.pk)


def test_the_aftermath_queues_with_the_row_it_locked_in_one_statement(
    django_user_model, django_assert_num_queries
):
    """Given the game's row (the aftermath's), queueing reads nothing: one statement, the
    insert; and it decides as a read of the row would, for rated and casual games."""
    alice = django_user_model.objects.create_user("al")
    game = finish(alice, ["me", "random", "random"])
    unrated(game)
    RatingQueue.objects.all().delete()
    with django_assert_num_queries(1):
        game_queue(game_id=game.pk, game=game)
    assert RatingQueue.objects.get().finished_at == game.finished_at
    RatingQueue.objects.all().delete()
    game.is_rated = False
    with django_assert_num_queries(0):
        game_queue(game_id=game.pk, game=game)
    assert not RatingQueue.objects.exists()


def test_a_game_is_queued_once_and_casual_games_not_at_all(django_user_model):
    alice = django_user_model.objects.create_user("al")
    game = finish(alice, ["me", "random", "random"])
    unrated(game)
    game_queue(game_id=game.pk)  # an aftermath tried again
    assert RatingQueue.objects.get().finished_at == game.finished_at
    Game.objects.filter(pk=game.pk).update(is_rated=False)
    RatingQueue.objects.all().delete()
    game_queue(game_id=game.pk)
    assert not RatingQueue.objects.exists()


def test_queued_games_are_rated_in_the_order_they_ended(django_user_model):
    """Two games seat the random bot (one rating row): the one that ended first is rated
    first, whichever was queued first."""
    alice = django_user_model.objects.create_user("al")
    first = finish(alice, ["me", "random", "random"])
    second = finish(alice, ["me", "random", "random"])
    Game.objects.filter(pk=first.pk).update(finished_at=second.finished_at + timedelta(minutes=1))
    unrated(second, Game.objects.get(pk=first.pk))  # now the second game ended first
    assert queued_rate() == 2 and not RatingQueue.objects.exists()
    befores = {
        event.game_id: event.mu_before for event in RatingEvent.objects.filter(seat=0)
    }  # alice's seat
    assert befores[second.pk] == 25.0 and befores[first.pk] != 25.0


def test_a_game_that_fails_to_rate_does_not_hold_up_the_others(django_user_model, monkeypatch):
    from ratings import services

    alice = django_user_model.objects.create_user("al")
    broken, fine = (finish(alice, ["me", "random", "random"]) for _ in range(2))
    unrated(broken, fine)
    rate = services.game_rate

    def fails_for_one(*, game_id, **kwargs):
        if game_id == broken.pk:
            raise RuntimeError("a broken game")
        return rate(game_id=game_id, **kwargs)

    monkeypatch.setattr("ratings.queue.game_rate", fails_for_one)
    queued_rate()
    assert RatingEvent.objects.filter(game=fine).count() == 3
    left = RatingQueue.objects.get()
    assert left.game_id == broken.pk and left.attempts == MAX_ATTEMPTS
    assert not RatingEvent.objects.filter(game=broken).exists()


def looks(queries) -> int:
    """How many times the lane looked at the queue (each look takes the lane's lock)."""
    return sum("advisory_xact_lock(" in q["sql"] for q in queries.captured_queries)


@postgresql_only
def test_a_lane_that_drains_the_queue_does_not_look_again_until_its_next_round(
    django_user_model,
):
    """Rating reads the game behind the one it rates: after the last queued game the lane
    sleeps, where it spent a transaction finding the queue empty after every game."""
    alice = django_user_model.objects.create_user("al")
    games = [finish(alice, ["me", "random", "random"]) for _ in range(3)]
    unrated(games[0])
    test_transaction = int(connection.in_atomic_block)  # then the lane's own is a savepoint
    with CaptureQueriesContext(connection) as queries:
        assert queued_rate() == 1
    assert looks(queries) == 1
    savepoints = [q for q in queries.captured_queries if q["sql"].startswith("SAVEPOINT")]
    assert len(savepoints) == test_transaction  # none around the game, none inside
    unrated(*games[1:])
    with CaptureQueriesContext(connection) as queries:
        assert queued_rate() == 2
    assert looks(queries) == 2 and not RatingQueue.objects.exists()
    assert RatingEvent.objects.filter(game__in=games[1:]).count() == 6


def statements(queries) -> list[str]:
    """The statements sent, without the transaction's own (``BEGIN``, savepoints)."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK")
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(skip)]


@postgresql_only
def test_a_game_of_rated_players_is_rated_in_twelve_statements(django_user_model):
    """The lane's two locks in one statement; every player's rating read and locked at once;
    the ratings and the board's standings written in one statement each (18 statements for
    this game before)."""
    from ratings.models import Leaderboard, Standing

    Leaderboard.objects.create(name="Main", slug="main")
    alice = django_user_model.objects.create_user("al")
    games = [finish(alice, ["me", "random", "careful"]) for _ in range(2)]
    unrated(games[1])  # its players have ratings and standings from the first game
    with CaptureQueriesContext(connection) as queries:
        assert queued_rate() == 1
    sent = statements(queries)
    assert len(sent) == 12, "\n".join(sent)
    assert looks(queries) == 1
    rows = {r.bot or r.user_id: r for r in PlayerRating.objects.all()}
    events = RatingEvent.objects.filter(game=games[1]).order_by("seat")
    for event, who in zip(events, (alice.pk, "random", "careful"), strict=True):
        assert event.rating == rows[who] and rows[who].mu == event.mu_after
        assert rows[who].games == 1  # unrated() set them back to none before this game
        standing = Standing.objects.get(rating=rows[who])
        # Both games, and this one's first rating (unrated() takes it back from the ratings
        # only): the board counts a game each time it is rated.
        assert (standing.games, standing.mu) == (3, event.mu_after)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_fifty_lanes_at_once_rate_every_queued_game_once_and_in_order(django_user_model):
    alice = django_user_model.objects.create_user("al")
    bob = django_user_model.objects.create_user("bo")
    games = [finish(user, ["me", "random", "random"]) for user in (alice, bob) * 3]
    unrated(*games)
    taken = at_once(*[queued_rate for _ in range(50)])
    assert sum(taken) == len(games) and not RatingQueue.objects.exists()
    for game in games:
        assert RatingEvent.objects.filter(game=game).count() == 3
    bots = PlayerRating.objects.get(bot="random")
    assert bots.games == 2 * len(games)
    rated_order = list(
        RatingEvent.objects.filter(seat=1).order_by("pk").values_list("game_id", flat=True)
    )
    assert rated_order == [g.pk for g in sorted(games, key=lambda g: (g.finished_at, g.pk))]
    by_game: dict[int, list] = {}
    for event in RatingEvent.objects.filter(rating=bots).order_by("pk"):
        by_game.setdefault(event.game_id, []).append(event)
    chain = list(by_game.values())
    for last, this in pairwise(chain):  # each from the one before
        assert this[0].mu_before == pytest.approx(sum(e.mu_after for e in last) / 2)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_lane_passes_while_a_swap_holds_the_rating_lock(django_user_model):
    """A recompute's swap holds the rating lock: the lane does not wait for it, the game
    stays queued, and the next look rates it."""
    alice = django_user_model.objects.create_user("al")
    game = finish(alice, ["me", "random", "random"])
    unrated(game)
    held, release = threading.Event(), threading.Event()

    def swap():
        with transaction.atomic():
            rating_lock_take(exclusive=True)
            held.set()
            release.wait(timeout=30)
        connection.close()

    thread = threading.Thread(target=swap)
    thread.start()
    try:
        assert held.wait(timeout=30)
        assert queued_rate_next() is None  # at once, not after the swap
        assert RatingQueue.objects.filter(game=game).exists()
    finally:
        release.set()
        thread.join()
    assert queued_rate() == 1 and RatingEvent.objects.filter(game=game).count() == 3


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_a_board_rebuilt_while_a_game_is_rated_waits_instead_of_deadlocking(django_user_model):
    """A board is saved (the lanes see it) before its standings are rebuilt. A game rated in
    between wrote lines for the board while the rebuild wrote its own: each transaction then
    waited for the other (the lane's line for the rebuild's, the rebuild's commit for the
    lane's rating rows) and PostgreSQL cancelled one. The rebuild now holds the rating lock:
    the lane waits for it, then counts its game on the rebuilt lines."""
    from django.db import OperationalError

    from ratings.models import Leaderboard, Standing
    from ratings.services import game_rate
    from ratings.standings import standings_rebuild

    alice = django_user_model.objects.create_user("al")
    finish(alice, ["me", "random", "random"])
    later = finish(alice, ["me", "random", "random"])
    RatingEvent.objects.filter(game=later).delete()  # as if its rating were under way
    board = Leaderboard.objects.bulk_create([Leaderboard(name="All time", slug="all-time")])[0]
    rebuilt, release, waiting, errors = (threading.Event(), threading.Event(), [], [])

    def rebuild():
        try:
            with transaction.atomic():  # the rebuild's lines, not yet committed
                standings_rebuild(board=board)
                rebuilt.set()
                release.wait(30)
        except OperationalError as error:
            errors.append(error)
        finally:
            connection.close()

    def rate():
        try:
            waiting.append(connection.cursor().connection.info.backend_pid)
            game_rate(game_id=later.pk)
        except OperationalError as error:
            errors.append(error)
        finally:
            connection.close()

    rebuilding = threading.Thread(target=rebuild)
    rebuilding.start()
    assert rebuilt.wait(30)
    rating = threading.Thread(target=rate)
    rating.start()
    for _ in range(3000):  # until the lane waits on a lock (the rebuild's), 30 s at most
        if waiting and Game.objects.raw(
            "SELECT 1 AS id FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'",
            [waiting[0]],
        ):
            break
        threading.Event().wait(0.01)
    else:
        raise AssertionError("the rating never waited")
    release.set()
    rebuilding.join(60)
    rating.join(60)
    assert not errors
    counted = sorted(Standing.objects.filter(leaderboard=board).values_list("rating_id", "games"))
    standings_rebuild(board=board)  # from every event: what the two left must be the same
    assert counted == sorted(
        Standing.objects.filter(leaderboard=board).values_list("rating_id", "games")
    )
    assert RatingEvent.objects.filter(game=later).count() == 3


def test_the_table_hears_of_its_ratings_once_the_lane_has_rated_the_game(
    django_user_model, monkeypatch, django_capture_on_commit_callbacks
):
    """The one notice a finished game's table gets after its last card: its ratings, once
    rated (the aftermath tells nothing: nothing the table shows changes there)."""
    from ratings import queue

    alice = django_user_model.objects.create_user("al")
    game = finish(alice, ["me", "random", "random"])
    unrated(game)
    told = []
    monkeypatch.setattr(queue, "notify_table", lambda game_id, moves: told.append((game_id, moves)))
    with django_capture_on_commit_callbacks(execute=True):
        assert queued_rate() == 1
    assert told == [(game.pk, -1)]
    assert RatingEvent.objects.filter(game=game).count() == 3
