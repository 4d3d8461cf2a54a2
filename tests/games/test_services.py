"""The service layer: tables, seats, moves, refused moves, rows, records and query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.engine import (
    CARD_CODES,
    GameState,
    IllegalPlay,
    NotInHand,
    NotYourTurn,
    record_json,
    record_of,
    state_from_record,
)
from games.history.records import game_record, players_of
from games.models import Game, Hand, Play, Seat, Trick
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .helpers import serve_due

pytestmark = pytest.mark.django_db


def three_humans(alice, bob, carol, target=10) -> Game:
    game = services.game_create(creator=alice, target=target, seat_kinds=["me", "open", "open"])
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_join(game_id=game.pk, user=carol)
    game.refresh_from_db()
    return game


def users_by_seat(game):
    return {seat.number: seat.user for seat in game.seats.select_related("user")}


def play_turn(game, users):
    """The seat due to play plays its first card; return the move result."""
    state = game_load(Game.objects.get(pk=game.pk)).state
    seat = state.to_play
    return flow.play_card(game_id=game.pk, user=users[seat], card=CARD_CODES[state.hands[seat][0]])


def rows_snapshot(game):
    return (
        Play.objects.filter(game=game).count(),
        Trick.objects.filter(hand__game=game).count(),
        Hand.objects.filter(game=game).count(),
        list(Seat.objects.filter(game=game).values_list("score", flat=True)),
        Game.objects.values_list("moves", "status", "to_play").get(pk=game.pk),
    )


def trick_rows(game) -> list[tuple]:
    """Every trick of ``game`` as its rows say: where it is, who led, its cards in order (from
    the plays that point at it), who won and its points."""
    rows = []
    for trick in Trick.objects.filter(hand__game=game).select_related("hand"):
        plays = trick.plays.order_by("order")
        assert all(play.hand_id == trick.hand_id for play in plays)
        cards = tuple(play.card for play in plays)
        rows.append(
            (trick.hand.number, trick.number, trick.leader, cards, trick.winner, trick.points)
        )
    return sorted(rows)


def engine_tricks(state) -> list[tuple]:
    """The same for the engine's game: finished tricks, then the one being played."""
    rows = [
        (hand.number, t.number, t.leader, tuple(CARD_CODES[c] for c in t.cards), t.winner, t.points)
        for hand in state.hand_log
        for t in hand.tricks
    ]
    if state.trick:
        cards = tuple(CARD_CODES[c] for c in state.trick)
        rows.append((state.hand_number, state.trick_number, state.leader, cards, None, None))
    return sorted(rows)


def test_a_table_waits_until_three_seats_are_filled_then_deals(alice, bob, carol):
    game = services.game_create(creator=alice, target=15, seat_kinds=["me", "open", "open"])
    assert game.status == Game.Status.WAITING and not Hand.objects.filter(game=game).exists()
    services.seat_join(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING
    services.seat_join(game_id=game.pk, user=carol)
    game.refresh_from_db()
    assert game.status == Game.Status.IN_PROGRESS and game.started_at
    hand = Hand.objects.get(game=game)
    expected = GameState(15, seed=game.seed)
    assert hand.deck == [CARD_CODES[c] for c in expected.current_hand.deck]
    assert game.first_dealer == hand.dealer == expected.dealer
    assert game.to_play == expected.to_play


def test_joining_a_full_or_started_table_is_refused(alice, bob, carol, make_user):
    game = three_humans(alice, bob, carol)
    with pytest.raises(services.SeatUnavailable, match="already started"):
        services.seat_join(game_id=game.pk, user=make_user("dave"))


def test_a_seat_is_taken_once_and_a_user_sits_once(alice, bob, carol):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "heuristic"])
    with pytest.raises(services.SeatUnavailable, match="already have a seat"):
        services.seat_join(game_id=game.pk, user=alice)
    with pytest.raises(services.SeatUnavailable, match="taken"):
        services.seat_join(game_id=game.pk, user=bob, seat_number=2)
    services.seat_join(game_id=game.pk, user=bob, seat_number=1)
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_leaving_before_the_start_frees_the_seat_and_the_last_one_out_closes(alice, bob):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    services.seat_join(game_id=game.pk, user=bob)
    services.seat_leave(game_id=game.pk, user=bob)
    assert not Seat.objects.filter(game=game, user=bob).exists()
    services.seat_leave(game_id=game.pk, user=alice)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED


def test_a_private_table_needs_its_invite_token(alice, bob):
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "open", "random"], is_public=False
    )
    for wrong in ("", "not-the-token", game.invite_token[:-1], game.invite_token.upper()):
        with pytest.raises(services.SeatUnavailable, match="private table: you need its invite"):
            services.seat_join(game_id=game.pk, user=bob, invite_token=wrong)
        assert not Seat.objects.filter(game=game, user=bob).exists()
        assert Game.objects.get(pk=game.pk).status == Game.Status.WAITING
    services.seat_join(game_id=game.pk, user=bob, invite_token=game.invite_token)
    assert Seat.objects.get(game=game, number=1).user == bob
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS  # the last seat


@pytest.mark.parametrize(
    "kinds", [["open", "open", "open"], ["me", "me", "open"], ["me", "wizard", "open"], ["me"]]
)
def test_bad_table_settings_are_refused(alice, kinds):
    with pytest.raises(services.GameError):
        services.game_create(creator=alice, target=10, seat_kinds=kinds)
    assert not Game.objects.exists()


@pytest.mark.parametrize("target", [0, 100, -1])
def test_targets_outside_1_to_99_are_refused(alice, target):
    with pytest.raises(services.GameError, match="target"):
        services.game_create(creator=alice, target=target, seat_kinds=["me", "random", "random"])


def test_a_move_writes_its_rows_and_the_rows_rebuild_the_game(alice, bob, carol):
    game = three_humans(alice, bob, carol)
    users = users_by_seat(game)
    for _ in range(7):
        play_turn(game, users)
    game.refresh_from_db()
    assert game.moves == 7
    plays = list(Play.objects.filter(game=game).order_by("sequence"))
    assert [p.sequence for p in plays] == list(range(7))
    assert [p.order for p in plays] == [0, 1, 2, 0, 1, 2, 0]
    tricks = list(Trick.objects.filter(hand__game=game).order_by("number"))
    assert [t.number for t in tricks] == [1, 2, 3]
    assert tricks[2].winner is None and tricks[0].winner is not None
    loaded = game_load(game)
    assert loaded.state.scores == [s.score for s in loaded.seats]
    assert sum(t.points for t in tricks[:2]) == sum(loaded.state.scores)


def test_refused_moves_change_nothing(alice, bob, carol, make_user):
    game = three_humans(alice, bob, carol)
    users = users_by_seat(game)
    play_turn(game, users)
    state = game_load(Game.objects.get(pk=game.pk)).state
    seat = state.to_play
    before = rows_snapshot(game)
    other = users[(seat + 1) % 3]
    with pytest.raises(NotYourTurn):
        flow.play_card(game_id=game.pk, user=other, card=CARD_CODES[state.hands[(seat + 1) % 3][0]])
    with pytest.raises(NotInHand):
        flow.play_card(
            game_id=game.pk, user=users[seat], card=CARD_CODES[state.hands[(seat + 1) % 3][0]]
        )
    for bad in ["13O", "", None, 7, {"x": 1}, "1O" * 100]:
        with pytest.raises(IllegalPlay):
            flow.play_card(game_id=game.pk, user=users[seat], card=bad)
    with pytest.raises(services.NotSeated):
        flow.play_card(game_id=game.pk, user=make_user("eve"), card="1O")
    with pytest.raises(services.GameNotFound):
        flow.play_card(game_id=game.pk + 100, user=users[seat], card="1O")
    assert rows_snapshot(game) == before


def test_a_move_on_a_waiting_or_finished_game_is_refused(alice, bob):
    waiting = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    with pytest.raises(services.GameNotRunning, match="not started"):
        flow.play_card(game_id=waiting.pk, user=alice, card="1O")
    game = services.game_create(creator=bob, target=1, seat_kinds=["me", "random", "random"])
    users = users_by_seat(game)
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        if not serve_due(game.pk):
            play_turn(game, users)
    before = rows_snapshot(game)
    with pytest.raises(services.GameNotRunning, match="over"):
        flow.play_card(game_id=game.pk, user=bob, card="1O")
    assert rows_snapshot(game) == before


def test_bots_play_when_their_turn_is_due_and_only_once(alice, settings):
    """A bot's card is due a pause after the move before it: not sooner, and a second
    runner arriving for the same turn finds nothing due."""
    from datetime import timedelta

    from django.utils import timezone

    settings.COINS_BOT_PAUSE = 0.8
    game = services.game_create(creator=alice, target=10, seat_kinds=["random", "me", "random"])
    fresh = Game.objects.get(pk=game.pk)
    state = game_load(fresh).state
    if state.to_play == 1:
        play_turn(game, {1: alice})
        fresh = Game.objects.get(pk=game.pk)
    assert fresh.due_at is not None and fresh.turn_deadline is None
    assert flow.run_due(game.pk, now=fresh.due_at - timedelta(seconds=0.1)) is False
    assert flow.run_due(game.pk, now=fresh.due_at).cards == 1
    after = Game.objects.get(pk=game.pk)
    assert after.moves == fresh.moves + 1  # one card per due turn while bots pause
    assert flow.run_due(game.pk, now=fresh.due_at) is False  # already served
    assert after.due_at >= timezone.now() - timedelta(seconds=1)


def test_a_whole_game_against_bots_finishes_and_its_record_is_the_engines(alice):
    game = services.game_quick_play(user=alice)
    while Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
        serve_due(game.pk)
        if Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS:
            play_turn(game, {0: alice})
    game.refresh_from_db()
    loaded = game_load(game)
    assert game.status == Game.Status.FINISHED and game.winner_seat == loaded.state.winner
    assert game.finished_at and game.to_play is None
    record = game_record(game)
    assert record["status"] == "finished" and record["players"][0]["name"] == "alice"
    replayed = state_from_record(record)
    expected = record_of(replayed, game_id=str(game.pk), players=players_of(loaded.seats))
    assert record_json(record) == record_json(expected)
    assert [s.score for s in loaded.seats] == record["scores"]


def test_a_move_costs_at_most_ten_queries(alice, bob, carol):
    game = three_humans(alice, bob, carol)
    users = users_by_seat(game)
    worst = 0
    for _ in range(60):  # more than a hand: trick ends, scores and a new deal
        state = game_load(Game.objects.get(pk=game.pk)).state
        seat, card = state.to_play, CARD_CODES[state.hands[state.to_play][0]]
        with CaptureQueriesContext(connection) as queries:
            result = flow.play_card(game_id=game.pk, user=users[seat], card=card)
        worst = max(worst, len(queries))
        if result.loaded.state.winner is not None:
            break
    assert worst <= 10, worst


@pytest.mark.django_db(transaction=True)
def test_the_state_cache_holds_exactly_what_the_rows_say(alice, bob, carol):
    from games.table import state_cache
    from games.table.loading import _rebuild, seats_of

    game = three_humans(alice, bob, carol)
    users = users_by_seat(game)
    for _ in range(20):
        play_turn(game, users)
    game = Game.objects.get(pk=game.pk)
    cached = state_cache.get((game.pk, game.seed), game.moves)
    assert cached is not None
    rebuilt = _rebuild(game, seats_of(game)).state
    players = [{"seat": n} for n in range(3)]

    def as_json(state):
        return record_json(record_of(state, game_id="g", players=players, status="abandoned"))

    assert as_json(cached.state) == as_json(rebuilt)
    # A refused move changes neither the rows nor the cached state.
    seat = rebuilt.to_play
    wrong = CARD_CODES[rebuilt.hands[(seat + 1) % 3][0]]
    with pytest.raises(NotInHand):
        flow.play_card(game_id=game.pk, user=users[seat], card=wrong)
    again = state_cache.get((game.pk, game.seed), game.moves)
    assert again is not None and as_json(again.state) == as_json(rebuilt)


def test_out_of_turn_names_the_player_due_not_a_seat_number(alice, bob, carol):
    game = three_humans(alice, bob, carol)
    users = users_by_seat(game)
    state = game_load(Game.objects.get(pk=game.pk)).state
    due, other = state.to_play, (state.to_play + 1) % 3
    with pytest.raises(NotYourTurn) as error:
        flow.play_card(game_id=game.pk, user=users[other], card=CARD_CODES[state.hands[other][0]])
    assert users[due].username in str(error.value) and "seat" not in str(error.value)


@pytest.mark.django_db(transaction=True)
def test_bots_that_follow_a_move_answer_in_its_transaction_and_rows_match_the_engine(alice):
    """With ``bots_follow`` one call plays the person's card and the bots' answers; the
    rows written in one batch (new tricks, finished tricks, scores, new deals) rebuild the
    very game the engine played, and a call stays within ten queries (lock, new tricks,
    finished trick, plays, scores, a new deal, game)."""
    from games.table.loading import _rebuild, seats_of

    game = services.game_quick_play(user=alice, target=13)  # a hand hands out 12: new deals
    serve_due(game.pk)
    worst, hands_seen = 0, set()
    while True:
        state = game_load(Game.objects.get(pk=game.pk)).state
        before = Game.objects.get(pk=game.pk).moves
        card = CARD_CODES[state.hands[0][0]]
        with CaptureQueriesContext(connection) as queries:
            result = flow.play_card(game_id=game.pk, user=alice, card=card)
        after = result.loaded.state
        if after.winner is None:  # the last call also rates the game once it commits
            worst = max(worst, len(queries))
        hands_seen.add(after.hand_number)
        assert result.moves == before + result.played
        assert after.winner is not None or after.to_play == 0  # bots answered up to alice
        fresh = Game.objects.get(pk=game.pk)
        rebuilt = _rebuild(fresh, seats_of(fresh))
        assert rebuilt.state.trick == after.trick and rebuilt.state.scores == after.scores
        assert trick_rows(fresh) == engine_tricks(after)
        if after.winner is not None:
            break
    assert fresh.status == Game.Status.FINISHED and len(hands_seen) >= 2
    assert worst <= 10, worst
    record = game_record(fresh)
    replayed = state_from_record(record)
    expected = record_of(replayed, game_id=str(game.pk), players=players_of(rebuilt.seats))
    assert record_json(record) == record_json(expected)
    assert (
        list(Seat.objects.filter(game=game).order_by("number").values_list("score", flat=True))
        == record["scores"]
    )


def test_the_locked_game_row_is_what_the_orm_reads(alice, bob, carol):
    """``locked_game`` reads the row with a plain statement: every field (datetimes, the
    nulls of a game in progress) comes back as ``Game.objects.get`` gives it."""
    from django.db import transaction

    from games.table.lifecycle import locked_game

    game = three_humans(alice, bob, carol)
    Game.objects.filter(pk=game.pk).update(turn_deadline=game.updated_at)
    with transaction.atomic():
        locked = locked_game(game.pk)
    expected = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(expected, field.attname), field.name
    assert locked._state.adding is False and locked._state.db == expected._state.db


def test_a_cached_game_is_handed_out_as_a_copy_of_its_rows(alice, bob, carol):
    """Each ``get`` is a private copy, as ``copy.copy`` made it: the same fields and related
    rows, and nothing a caller changes (a field, a cached related row, the seats) reaches the
    cache or another caller's copy."""
    import copy

    from games.table import state_cache

    game = three_humans(alice, bob, carol)
    key = (game.pk, game.seed)
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    state_cache.put(key, state_cache.Entry(game.moves, game, seats, game_load(game).state))
    mine, theirs = state_cache.get(key, game.moves), state_cache.get(key, game.moves)
    for copied in (mine.game, *mine.seats):
        original = game if copied.pk == game.pk and isinstance(copied, Game) else None
        original = original or next(s for s in seats if s.pk == copied.pk)
        expected = copy.copy(original).__dict__
        expected.pop("_django_version")  # pickling's own mark, which copy.copy leaves behind
        assert copied.__dict__.keys() == expected.keys()
        assert all(
            copied.__dict__[name] == expected[name] for name in expected if name != "_state"
        )
        assert copied._state.__dict__.keys() == original._state.__dict__.keys()
        assert copied._state.db == original._state.db and not copied._state.adding
    assert mine.seats[0].user == alice  # the related row read with it came along
    mine.game.moves += 7
    mine.game.status = "finished"
    mine.seats[0].user = bob
    mine.seats[1]._state.fields_cache.clear()
    for entry in (theirs, state_cache.get(key, game.moves)):
        assert entry.game.moves == game.moves and entry.game.status == game.status
        assert entry.seats[0].user == alice
        assert "user" in entry.seats[1]._state.fields_cache
    assert state_cache.get(key, game.moves) is not None  # still there, unchanged
