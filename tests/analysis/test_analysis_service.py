"""Finished games are queued for analysis, worked once by whichever lane claims them (a dead
worker's claim runs out and is taken again), and published as coins-analysis/1 with the same
access rule as the record."""

import asyncio
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from analysis import lane, services
from analysis.models import GameAnalysis, SeatAccuracy
from analysis.work import work
from games.models import Game
from games.table import seats as table_seats
from games.table.thinking import stop_workers_now
from tests.games.helpers import play_out

pytestmark = pytest.mark.django_db


def finished_game(user, **kwargs) -> Game:
    game = table_seats.game_create(
        creator=user, target=4, seat_kinds=["me", "careful", "careful"], **kwargs
    )
    return play_out(game, user)


def test_a_game_that_ends_is_queued_and_a_running_one_has_no_analysis(client, alice):
    running = table_seats.game_create(
        creator=alice, target=20, seat_kinds=["me", "careful", "careful"]
    )
    assert client.get(f"/games/{running.pk}/analysis.json").status_code == 404
    game = finished_game(alice)
    analysis = GameAnalysis.objects.get(game=game)
    assert analysis.status == "pending"
    doc = client.get(f"/games/{game.pk}/analysis.json").json()
    assert doc == {"format": "coins-analysis/1", "game_id": str(game.pk), "status": "pending"}


def test_a_game_is_queued_once_in_one_statement(alice):
    """Queued in one statement (a read, a savepoint and an insert were four); an aftermath
    tried again queues nothing more, and a done analysis stays done."""
    game = finished_game(alice)
    GameAnalysis.objects.all().delete()
    with CaptureQueriesContext(connection) as queries:
        services.queue_analysis(game.pk)
    assert len(queries) == 1
    assert GameAnalysis.objects.get(game=game).status == "pending"
    GameAnalysis.objects.filter(game=game).update(status="done")
    services.queue_analysis(game.pk)
    assert GameAnalysis.objects.get(game=game).status == "done"


def test_the_document_once_done(client, alice):
    game = finished_game(alice)
    services.analyse_now(game)
    doc = client.get(reverse("game_analysis", args=[game.pk])).json()
    assert doc["status"] == "done" and doc["format"] == "coins-analysis/1"
    record = client.get(f"/games/{game.pk}/record.json").json()
    cards = [
        (hand["number"], trick["number"], code)
        for hand in record["hands"]
        for trick in hand["tricks"]
        for code in trick["cards"]
    ]
    assert [(p["hand"], p["trick"], p["card"]) for p in doc["plays"]] == cards
    assert set(doc) >= {"plays", "accuracy", "luck", "thresholds"}
    mine = SeatAccuracy.objects.get(game=game)
    assert mine.user == alice and mine.seat == 0 and mine.accuracy == doc["accuracy"][0]
    labels = [p["label"] for p in doc["plays"] if p["seat"] == 0]
    assert (mine.mistakes, mine.blunders) == (labels.count("mistake"), labels.count("blunder"))


def test_a_private_game_is_analysed_for_its_players_only(client, alice, bob):
    game = finished_game(alice, is_public=False)
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/analysis.json").status_code == 404
    client.force_login(alice)
    assert client.get(f"/games/{game.pk}/analysis.json").status_code == 200


def test_two_lanes_never_take_one_game_and_a_dead_workers_claim_runs_out(alice):
    game = finished_game(alice)
    first = services.claim_next()
    assert first is not None and services.claim_next() is None  # claimed: nobody else
    later = timezone.now() + services.LEASE + timedelta(seconds=1)
    second = services.claim_next(now=later)  # the first worker died: its lease ran out
    assert second is not None and second.analysis_id == first.analysis_id
    assert not services.save(first, work(first))  # the late first worker loses
    assert services.save(second, work(second))
    assert GameAnalysis.objects.get(game=game).status == "done"
    assert services.claim_next(now=later) is None


def test_the_lane_works_a_queued_game_in_its_own_process(alice, transactional_db):
    game = finished_game(alice)
    try:
        assert asyncio.run(lane.analyse_one())
        analysis = GameAnalysis.objects.get(game=game)
        assert analysis.status == "done" and analysis.cpu_seconds > 0
        assert not asyncio.run(lane.analyse_one())  # nothing left
    finally:  # the worker process and its database connections end with the test
        stop_workers_now()
