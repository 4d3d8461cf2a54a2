"""Races between people, on PostgreSQL where they really run at once (row locks decide)."""

import pytest
from django.db import connection

from games.models import Game, Rematch, Seat
from games.table import flow
from games.table import seats as services
from games.table.rematch import rematch_accept
from tests.games.helpers import at_once

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def test_two_people_taking_the_last_seat_at_once_exactly_one_gets_it(alice, bob, carol):
    for _ in range(8):
        game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "random"])
        results = at_once(
            lambda g=game: services.seat_join(game_id=g.pk, user=bob),
            lambda g=game: services.seat_join(game_id=g.pk, user=carol),
        )
        refused = [r for r in results if isinstance(r, services.SeatUnavailable)]
        assert len(refused) == 1 and "already started" in str(refused[0]), results
        seated = Seat.objects.filter(game=game, user__in=[bob, carol]).count()
        assert seated == 1
        assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_two_people_accepting_a_rematch_at_once_make_one_table(alice, bob, carol):
    for _ in range(5):
        game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
        services.seat_join(game_id=game.pk, user=bob)
        services.seat_join(game_id=game.pk, user=carol)
        flow.resign(game_id=game.pk, user=carol)
        rematch_accept(game_id=game.pk, user=alice)
        before = Game.objects.count()
        results = at_once(
            lambda g=game: rematch_accept(game_id=g.pk, user=bob),
            lambda g=game: rematch_accept(game_id=g.pk, user=carol),
        )
        assert not any(isinstance(r, Exception) for r in results), results
        assert Game.objects.count() == before + 1
        assert Rematch.objects.get(game=game).new_game.status == Game.Status.IN_PROGRESS


def test_two_people_finding_a_game_at_once_sit_at_one_table(alice, bob, carol, make_user):
    from games.table.matchmaking import find_game

    for n in range(6):
        one, two = make_user(f"one{n}"), make_user(f"two{n}")
        results = at_once(
            lambda u=one: find_game(user=u, target=10, clock=30, wait=30),
            lambda u=two: find_game(user=u, target=10, clock=30, wait=30),
        )
        assert not any(isinstance(r, Exception) for r in results), results
        assert results[0].pk == results[1].pk, "two people pressing at once, two tables"
        table = Game.objects.get(pk=results[0].pk)
        assert set(table.seats.values_list("user", flat=True)) == {one.pk, two.pk, None}
        from games.table import flow

        flow.abandon(game_id=table.pk)  # the next pair starts from an empty queue


def test_fifty_quick_plays_at_once_never_pass_the_running_games_limit(alice, settings):
    settings.COINS_MAX_RUNNING_GAMES = 10
    results = at_once(*[lambda: services.game_quick_play(user=alice)] * 50)
    started = [r for r in results if isinstance(r, Game)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert len(started) == 10 and len(refused) == 40, results
    assert "You are at 10 tables already" in str(refused[0])
    assert Seat.objects.filter(user=alice, game__status=Game.Status.IN_PROGRESS).count() == 10


def test_fifty_new_tables_at_once_never_pass_the_waiting_tables_limit(alice, settings):
    settings.COINS_MAX_WAITING_TABLES = 3

    def open_table():
        return services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])

    results = at_once(*[open_table] * 50)
    assert len([r for r in results if isinstance(r, Game)]) == 3, results
    assert Game.objects.filter(created_by=alice, status=Game.Status.WAITING).count() == 3


def test_joining_and_finding_games_at_once_count_against_one_limit(alice, bob, settings):
    """Seats taken at others' tables and found games share the person's limit."""
    from games.table.matchmaking import find_game

    tables = [
        services.game_create(creator=bob, target=10, seat_kinds=["me", "open", "random"])
        for _ in range(6)
    ]
    settings.COINS_MAX_RUNNING_GAMES = 4
    calls = [lambda g=g: services.seat_join(game_id=g.pk, user=alice) for g in tables]
    calls += [lambda: find_game(user=alice, target=10, clock=30, wait=None)] * 6
    at_once(*calls)
    playing = Seat.objects.filter(
        user=alice, game__status__in=(Game.Status.IN_PROGRESS, Game.Status.WAITING)
    ).count()
    assert playing <= 4
