"""Find a game: people with the same options sit together; bots fill after the chosen wait;
a late person takes a bot's seat before the first card; closed pages leave the queue."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Presence, Seat
from games.table import flow
from games.table.lifecycle import GONE_AFTER, QUEUE_CHECK_EVERY, START_GRACE
from games.table.matchmaking import QueueRefused, find_game

pytestmark = pytest.mark.django_db


def people(game: Game) -> list:
    return list(Seat.objects.filter(game=game).order_by("number").values_list("user", flat=True))


def here(game: Game, *users) -> None:
    """Their table pages are open (as their sockets would note)."""
    for user in users:
        Presence.objects.create(
            game=game, channel=f"test!{game.pk}-{user.pk}", user=user, seen_at=timezone.now()
        )


def check(game: Game, after: timedelta) -> Game:
    """Let the table's runner check run as if ``after`` had passed."""
    flow.run_due(game.pk, now=timezone.now() + after)
    return Game.objects.get(pk=game.pk)


def test_people_with_the_same_options_sit_together_and_the_third_starts_it(alice, bob, carol):
    first = find_game(user=alice, target=10, clock=30, wait=30)
    assert first.from_queue and first.status == Game.Status.WAITING and first.clock == 30
    second = find_game(user=bob, target=10, clock=30, wait=120)
    assert second.pk == first.pk and people(first) == [alice.pk, bob.pk, None]
    third = find_game(user=carol, target=10, clock=30, wait=None)
    assert third.pk == first.pk and third.status == Game.Status.IN_PROGRESS
    assert third.turn_deadline is not None  # a people's table: the clock runs


def test_different_options_make_different_tables(alice, bob, carol):
    games = {
        find_game(user=alice, target=10, clock=30, wait=30).pk,
        find_game(user=bob, target=15, clock=30, wait=30).pk,
        find_game(user=carol, target=10, clock=10, wait=30).pk,
    }
    assert len(games) == 3


@pytest.mark.parametrize(
    "options",
    [
        {"target": 11, "clock": 30, "wait": 30},
        {"target": 10, "clock": 5, "wait": 30},
        {"target": 10, "clock": None, "wait": 30},
        {"target": 10, "clock": 30, "wait": 45},
    ],
)
def test_options_off_the_lists_are_refused_and_change_nothing(alice, options):
    with pytest.raises(QueueRefused, match="from the lists"):
        find_game(user=alice, **options)
    assert not Game.objects.exists()


def test_after_the_chosen_wait_bots_fill_the_free_seats(alice, bob):
    game = find_game(user=alice, target=10, clock=30, wait=30)
    here(game, alice)
    game = check(game, timedelta(seconds=10))
    assert game.status == Game.Status.WAITING  # not yet
    game = check(game, timedelta(seconds=31))
    assert game.status == Game.Status.IN_PROGRESS
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert [(s.user_id, s.bot, s.placeholder) for s in seats] == [
        (alice.pk, "", False),
        (None, "careful", True),
        (None, "careful", True),
    ]
    if seats[game.to_play].bot:  # a bot would lead: a late person still has a moment
        assert game.due_at >= timezone.now() + START_GRACE - timedelta(seconds=2)


def test_a_late_person_takes_a_bots_seat_before_the_first_card_only(alice, bob, carol, make_user):
    game = find_game(user=alice, target=15, clock=20, wait=30)
    here(game, alice)
    game = check(game, timedelta(seconds=31))
    assert game.status == Game.Status.IN_PROGRESS and game.moves == 0
    late = find_game(user=bob, target=15, clock=20, wait=30)
    assert late.pk == game.pk and bob.pk in people(game)
    assert Seat.objects.filter(game=game, placeholder=True).count() == 1
    # Once a card is played, the next person gets a table of their own.
    from tests.games.helpers import serve_due

    game = Game.objects.get(pk=game.pk)
    serve_due(game.pk, later=timedelta(minutes=1))
    if Game.objects.get(pk=game.pk).moves == 0:  # a person leads: they play
        from games.engine import CARD_CODES
        from games.table.loading import game_load

        loaded = game_load(Game.objects.get(pk=game.pk))
        seat = loaded.seats[loaded.state.to_play]
        card = CARD_CODES[loaded.state.hands[seat.number][0]]
        flow.play_card(game_id=game.pk, user=seat.user, card=card)
    assert find_game(user=carol, target=15, clock=20, wait=30).pk != game.pk


def test_with_no_bots_chosen_the_table_waits_for_people(alice):
    game = find_game(user=alice, target=20, clock=60, wait=None)
    here(game, alice)
    for minutes in (1, 5, 30):
        Presence.objects.update(seen_at=timezone.now() + timedelta(minutes=minutes))  # open
        game = check(game, timedelta(minutes=minutes))
        assert game.status == Game.Status.WAITING


def test_a_closed_page_leaves_the_queue_and_an_empty_table_closes(alice, bob):
    game = find_game(user=alice, target=10, clock=30, wait=120)
    find_game(user=bob, target=10, clock=30, wait=120)
    here(game, bob)  # alice's page is gone; bob's is open
    game = check(game, QUEUE_CHECK_EVERY)
    assert people(game) == [alice.pk, bob.pk, None]  # gone a moment: maybe a reload
    Presence.objects.update(seen_at=timezone.now() + QUEUE_CHECK_EVERY + GONE_AFTER)
    game = check(game, QUEUE_CHECK_EVERY + GONE_AFTER + timedelta(seconds=1))
    assert people(game) == [None, bob.pk, None] and game.status == Game.Status.WAITING
    Presence.objects.all().delete()
    later = QUEUE_CHECK_EVERY + GONE_AFTER + timedelta(seconds=1)
    game = check(game, later * 2)
    game = check(game, later * 4)
    assert game.status == Game.Status.ABANDONED and not game.was_dealt


def test_pressing_again_leaves_the_table_still_forming(alice):
    first = find_game(user=alice, target=10, clock=30, wait=30)
    second = find_game(user=alice, target=20, clock=30, wait=30)
    assert second.pk != first.pk
    assert Game.objects.get(pk=first.pk).status == Game.Status.ABANDONED


def test_the_lobby_and_home_offer_find_a_game_and_it_seats_you(client, alice, bob):
    client.force_login(alice)
    for url in ("/", "/games/"):
        assert 'data-action="find-game"' in client.get(url).content.decode()
    response = client.post("/games/find/", {"target": "10", "clock": "30", "wait": "30"})
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "data-queue-wait" in page and "Stop searching" in page
    response = client.post("/games/find/", {"target": "12", "clock": "30", "wait": "30"})
    assert response["Location"] == "/games/"
    assert Game.objects.count() == 1


def test_a_friends_table_everyone_left_closes_and_leaves_the_lobby(alice):
    from games.history.queries import open_tables
    from games.table.seats import game_create

    table = game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    assert table.due_at is not None
    here(table, alice)
    table = check(table, timedelta(minutes=5))  # her page is open: nothing happens
    assert table.status == Game.Status.WAITING and table in open_tables()
    Presence.objects.all().delete()  # she closed it
    table = check(table, timedelta(minutes=6))
    assert table.status == Game.Status.WAITING  # gone a moment: she may come back
    table = check(table, timedelta(minutes=17))
    assert table.status == Game.Status.ABANDONED and table not in open_tables()


def test_a_late_person_is_seated_even_where_the_game_was_cached(alice, bob):
    """Seats change without a card here: a process that cached the game at move 0 (its
    board was drawn) must not keep the bot that held the seat."""
    from games.table.loading import game_load

    game = find_game(user=alice, target=10, clock=30, wait=30)
    here(game, alice)
    game = check(game, timedelta(seconds=31))
    before = game_load(Game.objects.get(pk=game.pk))  # cached, with the bots
    assert [s.user_id for s in before.seats].count(None) == 2
    find_game(user=bob, target=10, clock=30, wait=30)
    after = game_load(Game.objects.get(pk=game.pk))
    assert bob.pk in [s.user_id for s in after.seats]
    assert after.seat_of(bob) is not None


def test_bots_come_when_everyone_at_the_table_is_ready_for_them(alice, bob, carol, make_user):
    game = find_game(user=alice, target=10, clock=30, wait=30)
    find_game(user=bob, target=10, clock=30, wait=120)
    fill = Game.objects.get(pk=game.pk).queue_fill_at
    assert fill >= timezone.now() + timedelta(seconds=110)  # the most patient person's wait
    only_people = find_game(user=carol, target=15, clock=30, wait=None)
    find_game(user=make_user("dan"), target=15, clock=30, wait=30)
    assert Game.objects.get(pk=only_people.pk).queue_fill_at is None  # never: people only
