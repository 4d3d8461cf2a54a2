"""A recompute in chunks that commit as they go: resumable after its process dies, the old
ratings on the pages until one swap, and games that end meanwhile folded in after it."""

import threading

import pytest
from django.db import connection

from ratings import recompute
from ratings.models import PlayerRating, RatingEvent, RatingQueue, RatingsRecompute, RebuiltEvent
from ratings.queue import queued_rate
from ratings.recompute import chunk_committed, ratings_recompute
from tests.ratings.test_ratings import finish

pytestmark = pytest.mark.django_db(transaction=True)


class Killed(Exception):
    """The rebuilding process dies here (its uncommitted work is lost, as with kill -9)."""


def snapshot() -> list:
    return sorted(
        (r.user_id or 0, r.bot, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins)
        for r in PlayerRating.objects.all()
    )


def events() -> list:
    return sorted(
        (e.game_id, e.seat, e.rating_id, e.rank, round(e.mu_before, 9), round(e.mu_after, 9))
        for e in RatingEvent.objects.all()
    )


@pytest.fixture
def history(django_user_model):
    users = [django_user_model.objects.create_user(f"u{i}") for i in range(3)]
    finish(users[0], ["me", "open", "random"], others=[users[1]])
    finish(users[1], ["me", "careful", "careful"])  # one rating in two seats
    finish(users[2], ["me", "open", "random"], others=[users[0]])
    finish(users[0], ["me", "random", "careful"])
    finish(users[2], ["me", "open", "open"], others=users[:2])
    return users


@pytest.fixture
def on_chunk():
    """Connect a receiver to ``chunk_committed`` for the test."""
    connected = []

    def connect(receiver):
        chunk_committed.connect(receiver, weak=False, dispatch_uid=f"test.{len(connected)}")
        connected.append(f"test.{len(connected)}")

    yield connect
    for uid in connected:
        chunk_committed.disconnect(dispatch_uid=uid)


def test_a_rebuild_commits_chunk_by_chunk_and_resumes_after_its_process_died(
    history, monkeypatch, on_chunk
):
    expected, expected_events = snapshot(), events()
    PlayerRating.objects.update(mu=40.0)  # wrong ratings: the rebuild puts them right
    wrong, wrong_events = snapshot(), events()
    monkeypatch.setattr(recompute, "CHUNK", 2)
    seen = []

    def dies_after_two_chunks(sender, request, **kwargs):
        seen.append(request.games_done)
        assert snapshot() == wrong and events() == wrong_events  # pages: the old ratings
        if len(seen) == 2:
            raise Killed

    on_chunk(dies_after_two_chunks)
    request = RatingsRecompute.objects.create()
    with pytest.raises(Killed):
        ratings_recompute(request=request)
    request.refresh_from_db()
    assert seen == [2, 4] and request.games_done == 4 and request.games_total == 5
    assert request.finished_at is None and RebuiltEvent.objects.count() == 12
    assert request.rate is not None  # the admin shows the speed

    seen.clear()
    assert ratings_recompute(request=request) == 5  # resumed: only the last chunk is left
    assert seen == [5]
    assert snapshot() == expected and events() == expected_events
    request.refresh_from_db()
    assert request.finished_at is not None and request.games == 5
    assert not RebuiltEvent.objects.exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a rebuild beside a lane")
def test_a_game_that_ends_during_a_rebuild_is_rated_at_once_then_again_from_the_rebuilt(
    history, monkeypatch, on_chunk, django_user_model
):
    """While the rebuild is held at a chunk boundary, a game ends: its lane rates it at once
    (no lock is held between chunks). After the swap it is queued again and rated from the
    rebuilt ratings, as if the recompute had counted it last."""
    monkeypatch.setattr(recompute, "CHUNK", 2)
    held, release = threading.Event(), threading.Event()

    def hold(sender, request, **kwargs):
        held.set()
        release.wait(timeout=60)

    on_chunk(hold)
    outcome = []

    def rebuild():
        try:
            outcome.append(ratings_recompute())
        finally:
            connection.close()

    thread = threading.Thread(target=rebuild)
    thread.start()
    try:
        assert held.wait(timeout=60), "the rebuild never committed a chunk"
        newcomer = django_user_model.objects.create_user("late")  # a rating made meanwhile
        late = finish(newcomer, ["me", "random", "careful"])  # rated by its lane at once
        assert RatingEvent.objects.filter(game=late).count() == 3
    finally:
        release.set()
        thread.join()
    assert outcome == [5]
    assert RatingQueue.objects.filter(game=late).exists()  # rated again after the swap
    assert not RatingEvent.objects.filter(game=late).exists()
    assert queued_rate() == 1 and RatingEvent.objects.filter(game=late).count() == 3
    folded, folded_events = snapshot(), events()
    chunk_committed.disconnect(dispatch_uid="test.0")
    assert ratings_recompute() == 6  # a rebuild of all six games: the same ratings
    assert snapshot() == folded and events() == folded_events
