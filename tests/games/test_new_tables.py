"""A table made with every seat filled (quick play, tournaments, duplicate, the arena) is
written dealt at once: the same rows as a table whose last seat is taken later, in three
inserts and no update."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from games.models import Game, Hand, Seat
from games.table import seats as services
from games.table.lifecycle import IDLE_CHECK
from games.table.options import QUICK_PLAY_BOT
from notifications.models import TurnNotice

pytestmark = pytest.mark.django_db

SEED = "a-seed-both-tables-share"
DAY = 86400


def dealt_rows(game: Game) -> dict:
    """What dealing wrote, with each time given relative to the game's start."""
    game = Game.objects.get(pk=game.pk)
    start = game.started_at
    hand = Hand.objects.get(game=game)
    return {
        "game": (
            game.status,
            game.first_dealer,
            game.to_play,
            game.with_bots,
            game.moves,
            game.due_at - start,
            game.turn_deadline and game.turn_deadline - start,
        ),
        "hand": (hand.number, hand.dealer, hand.deck),
        "seats": [
            (
                seat.number,
                seat.user_id,
                seat.bot,
                seat.started_at - start,
                seat.target,
                seat.with_bots,
            )
            for seat in Seat.objects.filter(game=game).order_by("number")
        ],
    }


def test_a_table_made_full_is_dealt_as_one_whose_last_seat_is_taken_later(alice, bob, carol):
    later = services.game_create(
        creator=alice, target=7, seat_kinds=["me", "open", "open"], seed=SEED
    )
    services.seat_join(game_id=later.pk, user=bob)
    services.seat_join(game_id=later.pk, user=carol)
    at_once = services.game_create_for(
        people=[alice, bob, carol], bot=QUICK_PLAY_BOT, target=7, seed=SEED
    )

    rows = dealt_rows(at_once)
    assert rows == dealt_rows(later)
    assert rows["game"][0] == Game.Status.IN_PROGRESS and rows["game"][3] is False
    assert rows["game"][5] == IDLE_CHECK  # no clock, a person to play: a look in ten minutes


def test_a_quick_play_is_three_inserts_and_no_update(alice):
    with CaptureQueriesContext(connection) as captured:
        game = services.game_quick_play(user=alice, target=5)
    writes = [q["sql"].split()[0] for q in captured.captured_queries]
    writes = [verb for verb in writes if verb in ("INSERT", "UPDATE", "DELETE")]
    assert writes == ["INSERT", "INSERT", "INSERT"]  # the game, its seats, its first hand
    rows = dealt_rows(game)
    assert rows["game"][0] == Game.Status.IN_PROGRESS and rows["game"][3] is True
    assert [seat[2] for seat in rows["seats"]] == ["", QUICK_PLAY_BOT, QUICK_PLAY_BOT]
    assert all(seat[3:] == (rows["seats"][0][3], 5, True) for seat in rows["seats"])
    assert rows["seats"][0][3].total_seconds() == 0  # the seats' start is the game's


def test_a_slow_table_made_full_notes_the_first_turn_of_the_person_to_play(make_user):
    people = [make_user(name, f"{name}@example.com") for name in ("ann", "ben", "cat")]
    Profile.objects.filter(user__in=people).update(turn_email=True)
    people = [type(person).objects.get(pk=person.pk) for person in people]  # their profiles anew
    game = services.game_create_for(people=people, bot=QUICK_PLAY_BOT, target=5, clock=DAY)
    first = Seat.objects.get(game=game, number=game.to_play)
    notice = TurnNotice.objects.get(game=game)
    assert (notice.user_id, notice.moves) == (first.user_id, 0)
    assert Game.objects.get(pk=game.pk).turn_deadline is not None
