"""Fifty answers at once, by one person to one puzzle, each from a client of its own in a
thread of its own against PostgreSQL: one counts, and both ratings move once."""

import pytest
from django.test import Client

from lab.benchmarks.bursts import at_once
from puzzles.models import Puzzle, PuzzleAttempt, PuzzleRecord

from .helpers import analysed, finished_game

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 50


def test_fifty_parallel_answers_by_one_person_count_once(django_user_model):
    alice = django_user_model.objects.create_user("alice", password="pw-Coins-123")
    bob = django_user_model.objects.create_user("bob", password="pw-Coins-123")
    analysed(finished_game(alice), count=1)
    puzzle = Puzzle.objects.get()
    clients = []
    for _ in range(BURST):
        client = Client()
        client.force_login(bob)
        clients.append(client)
    path, answer = f"/puzzles/{puzzle.pk}/", {"card": puzzle.solution}
    responses = at_once([lambda c=c: c.post(path, answer) for c in clients])
    assert not [r for r in responses if isinstance(r, Exception)], responses
    assert [r.status_code for r in responses] == [200] * BURST
    assert PuzzleAttempt.objects.filter(puzzle=puzzle, user=bob).count() == 1
    record = PuzzleRecord.objects.get(user=bob)
    assert (record.solved, record.failed, record.streak) == (1, 0, 1)
    assert record.rating == pytest.approx(1516)
    puzzle.refresh_from_db()
    assert puzzle.rating == pytest.approx(1484)
    repeats = sum("data-repeat" in r.content.decode() for r in responses)
    assert repeats == BURST - 1
