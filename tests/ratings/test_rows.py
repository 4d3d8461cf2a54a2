"""The rating's kept statements (``ratings.rows``) give what the ORM's queries gave."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from games.table import seats as services
from ratings import rows
from ratings.models import Leaderboard, PlayerRating, RatingEvent, RatingQueue
from ratings.queue import MAX_ATTEMPTS, queued_rate
from ratings.services import game_rate
from tests.ratings.test_ratings import finish

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.fixture
def games(alice) -> list[Game]:
    return [
        services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
        for _ in range(6)
    ]


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    queued=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(0, 3)),  # minutes after a moment, or no end
            st.integers(0, MAX_ATTEMPTS + 1),
        ),
        max_size=6,
    ),
    count=st.integers(1, 3),
)
def test_the_queues_head_is_the_orms(games, queued, count):
    """Any queue: ends missing or shared (the order falls to the game's id), games that
    failed too often: the same games, in the same order, as the ORM's query."""
    RatingQueue.objects.all().delete()
    moment = timezone.now()
    RatingQueue.objects.bulk_create(
        RatingQueue(
            game=game,
            finished_at=None if minutes is None else moment + timedelta(minutes=minutes),
            attempts=attempts,
        )
        for game, (minutes, attempts) in zip(games, queued, strict=False)
    )
    orm = (
        RatingQueue.objects.filter(attempts__lt=MAX_ATTEMPTS)
        .order_by("finished_at", "game_id")
        .values_list("game_id", "attempts")[:count]
    )
    with transaction.atomic():
        assert rows.queue_head(MAX_ATTEMPTS, count) == list(orm)
    if queued:
        rows.queue_drop(games[0].pk)
        assert not RatingQueue.objects.filter(game=games[0]).exists()
        assert RatingQueue.objects.count() == min(len(queued), len(games)) - 1


def test_the_locked_game_is_the_orms_field_for_field(alice):
    game = finish(alice, ["me", "random", "random"])
    with transaction.atomic():
        kept = rows.game_locked(game.pk)
    assert fields_of(kept) == fields_of(Game.objects.get(pk=game.pk))
    assert not kept._state.adding
    with pytest.raises(Game.DoesNotExist), transaction.atomic():
        rows.game_locked(game.pk + 1000)


def test_a_game_is_known_rated_once_it_has_events(alice):
    game = finish(alice, ["me", "random", "random"])
    assert rows.game_rated(game.pk)
    RatingEvent.objects.filter(game=game).delete()
    assert not rows.game_rated(game.pk)


def test_the_locked_ratings_are_the_orms_for_people_bots_both_and_none(alice, bob, carol):
    finish(alice, ["me", "random", "careful"])
    finish(bob, ["me", "random", "random"])
    for users, bots in [
        ({alice.pk}, set()),
        (set(), {"random", "careful"}),
        ({alice.pk, bob.pk, carol.pk}, {"random"}),  # carol has no rating yet
        (set(), set()),
    ]:
        orm = PlayerRating.objects.filter(user_id__in=users) | PlayerRating.objects.filter(
            bot__in=bots
        )
        with transaction.atomic():
            kept = rows.ratings_locked(users, bots)
        assert [fields_of(r) for r in kept] == [fields_of(r) for r in orm.order_by("pk")]
        read = rows.ratings_of(users, bots)  # a page's read (what leaving costs): no lock
        assert [fields_of(r) for r in read] == [fields_of(r) for r in orm.order_by("pk")]


def test_the_events_are_inserted_as_bulk_create_inserts_them(alice):
    """Every column as the ORM writes it (``created_at`` stamped now), and each event given
    the id the database gave its row."""
    game = finish(alice, ["me", "random", "random"])
    made = list(RatingEvent.objects.filter(game=game).order_by("seat"))
    RatingEvent.objects.filter(game=game).delete()
    for event in made:
        event.pk, event._state.adding, event.created_at = None, True, None
    before = timezone.now()
    rows.events_insert(made)
    assert all(not event._state.adding for event in made)
    stored = {e.pk: e for e in RatingEvent.objects.filter(game=game)}
    assert sorted(stored) == sorted(event.pk for event in made)
    for event in made:
        assert fields_of(stored[event.pk]) == fields_of(event)
        assert before <= event.created_at <= timezone.now()
    rows.events_insert([])  # nothing to write: no statement fails


def test_the_kept_boards_are_the_open_ones_in_the_boards_order():
    for name, closed in [("Zeta", None), ("alpha", None), ("Beta", timezone.now()), ("Mid", None)]:
        Leaderboard.objects.create(name=name, slug=name.lower(), closed_at=closed)
    assert [fields_of(b) for b in rows.boards_kept()] == [
        fields_of(b) for b in Leaderboard.objects.filter(closed_at=None)
    ]


def test_a_rating_reads_and_writes_in_ten_statements(alice):
    """A game rated from the queue: the lane's locks (PostgreSQL), the queue's head, the game,
    whether it was rated, its seats, the ratings, the events, the ratings' update, the boards
    and the queue's row."""
    game = finish(alice, ["me", "random", "random"])
    RatingEvent.objects.filter(game=game).delete()
    RatingQueue.objects.create(game=game, finished_at=game.finished_at)
    with CaptureQueriesContext(connection) as captured:
        assert queued_rate() == 1
    statements = [
        q["sql"].split()[0]
        for q in captured.captured_queries
        if "SAVEPOINT" not in q["sql"] and q["sql"] not in ("BEGIN", "COMMIT")
    ]
    locks = ["SELECT"] if connection.vendor == "postgresql" else []
    assert statements == [*locks, *["SELECT"] * 5, "INSERT", "UPDATE", "SELECT", "DELETE"]
    assert RatingEvent.objects.filter(game=game).count() == 3
    assert game_rate(game_id=game.pk) == []  # rated once
