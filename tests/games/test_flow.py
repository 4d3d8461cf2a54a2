"""Tables that run themselves: clocks, absent people, idle tables, and one owner of every
change (each of which tells the table's sockets)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.engine import CARD_CODES, state_from_record
from games.history.records import game_record
from games.models import Game, Play, Presence, Seat
from games.realtime.push import notify_table
from games.table import flow, lifecycle, rematch
from games.table import seats as services
from games.table.loading import game_load
from games.table.matchmaking import find_game

from .helpers import serve_due

pytestmark = pytest.mark.django_db

LATER = timedelta(minutes=1)  # past any bot's pause and any 10 s clock


def clocked_game(alice, bob, clock=10) -> Game:
    game = services.game_create(
        creator=alice, target=10, seat_kinds=["me", "open", "random"], clock=clock
    )
    services.seat_join(game_id=game.pk, user=bob)
    return Game.objects.get(pk=game.pk)


def person_to_play(game: Game, users: dict):
    loaded = game_load(Game.objects.get(pk=game.pk))
    seat = loaded.seats[loaded.state.to_play]
    return (users.get(seat.number), loaded) if seat.user_id else (None, loaded)


def wait_for_turn(game: Game, seat: int) -> Game:
    """Let bots play (and the other person play their lowest card) until ``seat`` is due."""
    for _ in range(20):
        fresh = Game.objects.get(pk=game.pk)
        loaded = game_load(fresh)
        if loaded.state.to_play == seat or not fresh.is_running:
            return fresh
        due = loaded.seats[loaded.state.to_play]
        if due.user_id and not due.stand_in:
            card = CARD_CODES[min(loaded.state.hands[due.number])]
            flow.play_card(game_id=game.pk, user=due.user, card=card)
        else:
            serve_due(game.pk)  # bots (and stand-ins) are due at once: no pause in tests
    raise AssertionError("never the seat's turn")


def test_the_server_sets_the_deadline_and_shows_it_on_the_seat(client, alice, bob):
    game = wait_for_turn(clocked_game(alice, bob), 0)
    assert game.turn_deadline is not None and game.due_at == game.turn_deadline
    left = (game.turn_deadline - timezone.now()).total_seconds()
    assert 8 < left <= 10
    client.force_login(bob)
    html = client.get(game.get_absolute_url()).content.decode()
    deadline = int(game.turn_deadline.timestamp() * 1000)
    assert f'data-clock-seat="0" data-deadline="{deadline}"' in html
    assert "10 s per card" in html


def test_an_absent_person_is_played_for_then_replaced_and_ranked_last(alice, bob):
    from ratings.services import game_rate

    game = clocked_game(alice, bob)
    game = wait_for_turn(game, 0)
    assert flow.run_due(game.pk, now=game.turn_deadline - timedelta(seconds=1)) is False
    assert flow.run_due(game.pk, now=game.turn_deadline).cards == 1  # alice's clock ran out
    auto = Play.objects.get(game=game, sequence=game.moves)
    assert auto.seat == 0 and auto.auto
    assert Seat.objects.get(game=game, number=0).auto_in_row == 1
    game = wait_for_turn(game, 0)
    flow.run_due(game.pk, now=game.turn_deadline)  # the second card in a row: a bot sits in
    seat = Seat.objects.get(game=game, number=0)
    assert seat.stand_in == "careful" and seat.user_id == alice.pk
    with pytest.raises(services.NotSeated, match="bot plays your seat"):
        flow.play_card(game_id=game.pk, user=alice, card="1O")

    while Game.objects.get(pk=game.pk).is_running:  # bob plays on; the game finishes
        wait_for_turn(game, 1)
        if Game.objects.get(pk=game.pk).is_running:
            _, loaded = person_to_play(game, {1: bob})
            flow.play_card(game_id=game.pk, user=bob, card=CARD_CODES[loaded.state.hands[1][0]])
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    record = game_record(game)
    autos = [t["auto"] for h in record["hands"] for t in h["tricks"] if "auto" in t]
    assert autos == [[0], [0]] and record["players"][0]["stand_in"] == "careful"
    assert state_from_record(record).winner == game.winner_seat  # still a conforming record
    events = {e.seat: e.rank for e in game_rate(game_id=game.pk)}
    assert events[0] == 3  # the absent person is ranked last, whatever their points


def test_a_person_who_comes_back_in_time_keeps_their_seat(alice, bob):
    game = wait_for_turn(clocked_game(alice, bob), 0)
    flow.run_due(game.pk, now=game.turn_deadline)  # one card played for alice
    game = wait_for_turn(game, 0)
    _, loaded = person_to_play(game, {0: alice})
    flow.play_card(game_id=game.pk, user=alice, card=CARD_CODES[loaded.state.hands[0][0]])
    seat = Seat.objects.get(game=game, number=0)
    assert seat.auto_in_row == 0 and not seat.stand_in


def test_alone_with_bots_and_gone_the_game_is_abandoned_after_ten_minutes(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    serve_due(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.to_play == 0 and game.clock is None and game.turn_deadline is None
    assert flow.run_due(game.pk, now=timezone.now() + timedelta(minutes=9)) is False
    assert flow.run_due(game.pk, now=timezone.now() + timedelta(minutes=11)).cards == 0
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ABANDONED and game.abandoned_by == 0
    from games.history.queries import running_games_of, watchable_games

    assert game not in watchable_games() and game not in running_games_of(alice)


def test_a_slow_person_whose_page_is_open_is_left_alone(alice):
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    serve_due(game.pk)
    later = timezone.now() + timedelta(minutes=11)
    Presence.objects.create(game=game, channel="open!1", user=alice, seen_at=later)
    assert flow.run_due(game.pk, now=later).cards == 0
    game = Game.objects.get(pk=game.pk)
    assert game.is_running and game.due_at > later


def test_without_a_clock_a_gone_person_is_replaced_when_others_play_on(alice, bob):
    game = clocked_game(alice, bob, clock=None)
    game = wait_for_turn(game, 0)
    assert flow.run_due(game.pk, now=timezone.now() + timedelta(minutes=11)).cards == 0
    assert Seat.objects.get(game=game, number=0).stand_in == "careful"
    assert Game.objects.get(pk=game.pk).is_running


@pytest.fixture
def told(monkeypatch):
    """What the table's sockets were told, by table (a change that is not a card: -1)."""
    calls = []
    modules = ("games.table.lifecycle", "games.table.seats", "games.table.rematch")
    for module in (*modules, "games.table.matchmaking"):
        monkeypatch.setattr(
            f"{module}.notify_table", lambda game_id, moves, **kw: calls.append(game_id)
        )
    return calls


def test_every_change_to_a_table_tells_its_sockets(
    alice, bob, carol, told, django_capture_on_commit_callbacks
):
    def changed(action) -> bool:
        told.clear()
        with django_capture_on_commit_callbacks(execute=True):
            action()
        return bool(told)

    table = services.game_create(creator=alice, target=10, seat_kinds=["me", "open", "open"])
    assert changed(lambda: services.seat_join(game_id=table.pk, user=bob))
    assert changed(lambda: services.seat_leave(game_id=table.pk, user=bob))
    assert changed(lambda: services.seat_leave(game_id=table.pk, user=alice))  # closed

    game = clocked_game(alice, bob)
    game = wait_for_turn(game, 0)
    _, loaded = person_to_play(game, {0: alice})
    card = CARD_CODES[loaded.state.hands[0][0]]
    assert changed(lambda: flow.play_card(game_id=game.pk, user=alice, card=card))
    game = wait_for_turn(game, 0)
    assert changed(lambda: flow.run_due(game.pk, now=game.turn_deadline))  # clock ran out
    bots = services.game_create(creator=carol, target=10, seat_kinds=["random", "me", "random"])
    bots = Game.objects.get(pk=bots.pk)
    if bots.to_play != 1:
        assert changed(lambda: flow.run_due(bots.pk, now=timezone.now() + LATER))  # a bot
    assert changed(lambda: flow.resign(game_id=game.pk, user=bob))
    # The aftermath changes nothing a table shows (its last card showed the end; the
    # ratings are told by the lane that rates the game): no board sent again for nothing.
    assert not changed(lambda: flow.run_due(game.pk, now=timezone.now() + LATER))
    assert changed(lambda: flow.abandon(game_id=bots.pk))
    assert changed(lambda: rematch.rematch_accept(game_id=game.pk, user=alice))
    assert changed(lambda: rematch.rematch_decline(game_id=game.pk, user=bob))
    queue = find_game(user=carol, target=15, clock=30, wait=30)
    assert changed(lambda: find_game(user=bob, target=15, clock=30, wait=30))
    assert changed(lambda: flow.run_due(queue.pk, now=timezone.now() + LATER))  # bots fill


def test_no_page_changes_a_table_by_being_read(client, alice):
    """No GET writes: loading pages of a table with a bot due plays nothing."""
    game = services.game_create(creator=alice, target=10, seat_kinds=["random", "random", "me"])
    game = Game.objects.get(pk=game.pk)
    client.force_login(alice)
    for path in ("", "record.json", "replay/"):
        client.get(f"{game.get_absolute_url()}{path}")
    assert Game.objects.get(pk=game.pk).moves == 0 and not Play.objects.exists()


def test_a_channel_layer_that_is_down_costs_updates_not_the_change(client, alice, monkeypatch):
    """Redis restarting: a card played from a page is committed and the page answers
    normally (no 500 after a committed change); the sockets ask again later."""
    from channels.layers import get_channel_layer

    async def down(*args, **kwargs):
        raise ConnectionError("Redis is restarting")

    layer = get_channel_layer()
    monkeypatch.setattr(layer, "group_send", down)
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    serve_due(game.pk)
    client.force_login(alice)
    hand = game_load(Game.objects.get(pk=game.pk)).state.hands[0]
    response = client.post(f"/games/{game.pk}/play/", {"card": CARD_CODES[hand[0]]})
    assert response.status_code == 302
    assert Play.objects.filter(game=game, seat=0).count() == 1
    notify_table(game.pk, 1)  # and directly: a warning, never an exception


def test_the_runners_forget_presence_rows_of_long_dead_sockets(alice):
    from games.table.runner import idle_work

    game = services.game_quick_play(user=alice)
    now = timezone.now()
    Presence.objects.create(
        game=game, channel="dead!1", user=alice, seen_at=now - timedelta(hours=2)
    )
    Presence.objects.create(game=game, channel="live!1", user=alice, seen_at=now)
    idle_work()
    assert list(Presence.objects.values_list("channel", flat=True)) == ["live!1"]


def test_a_person_a_bot_replaced_cannot_end_the_game_for_the_others(alice, bob):
    game = clocked_game(alice, bob)
    for _ in range(2):
        game = wait_for_turn(game, 0)
        flow.run_due(game.pk, now=game.turn_deadline)
    assert Seat.objects.get(game=game, number=0).stand_in
    with pytest.raises(services.NotSeated, match="bot plays your seat"):
        flow.resign(game_id=game.pk, user=alice)
    assert Game.objects.get(pk=game.pk).is_running


def test_a_game_whose_due_work_fails_waits_and_the_others_are_served(alice, bob, monkeypatch):
    """One broken table must not stall a runner: it is put back for later, the rest go on."""
    from games.table import runner

    broken = services.game_create(creator=alice, target=10, seat_kinds=["random", "me", "random"])
    fine = services.game_create(creator=bob, target=10, seat_kinds=["random", "me", "random"])
    Game.objects.filter(pk=broken.pk).update(due_at=timezone.now() - timedelta(seconds=5))
    Game.objects.filter(pk=fine.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    real = flow.run_due

    def run_due(game_id, now=None, locked=None):
        if game_id == broken.pk:
            Game.objects.filter(pk=game_id).update(to_play=2, moves=5)  # half done, then:
            raise RuntimeError("corrupt rows")
        return real(game_id, now, locked)

    monkeypatch.setattr(flow, "run_due", run_due)
    assert runner.claim_and_run() == broken.pk
    after = Game.objects.get(pk=broken.pk)
    assert after.due_at > timezone.now() + timedelta(seconds=20)
    assert (after.to_play, after.moves) == (broken.to_play, 0)  # the half-done work undone
    assert runner.claim_and_run() == fine.pk  # served, not stuck behind the broken one


def test_a_claim_says_whether_another_game_is_due_so_the_runner_looks_no_more(
    alice, bob, monkeypatch
):
    """The claim's statement says whether another game waits: after the last due game the
    runner naps (its nap reads the schedule) instead of looking once more for nothing. Each
    game's due work here only takes it off the schedule."""
    import asyncio

    from games.table import runner

    def run_due(game_id, now=None, locked=None):
        Game.objects.filter(pk=game_id).update(due_at=None)

    monkeypatch.setattr(flow, "run_due", run_due)
    first = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    second = services.game_create(creator=bob, target=10, seat_kinds=["me", "random", "random"])
    Game.objects.update(due_at=None)
    Game.objects.filter(pk=first.pk).update(due_at=timezone.now() - timedelta(seconds=5))
    Game.objects.filter(pk=second.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    assert runner.claim_and_run_next() == (first.pk, True)
    assert runner.claim_and_run_next() == (second.pk, False)
    assert runner.claim_and_run_next() == (None, False)

    claims = []
    answers = iter([(first.pk, True), (second.pk, False), (None, False)])

    def claim_and_run_next():
        claims.append(1)
        return next(answers)

    monkeypatch.setattr(runner, "claim_and_run_next", claim_and_run_next)
    assert asyncio.run(runner.run_due_tables()) == 2
    assert len(claims) == 2  # no third look


def test_a_runner_whose_pass_served_the_last_due_game_naps_before_it_looks_again(monkeypatch):
    """The runner's loop naps after a pass that ended short of its limit (its last claim said
    nothing more was due): looking again first found nothing, in 113 of 157 empty looks of a
    100-table run. A pass that reached its limit looks again at once."""
    import asyncio

    from games.table import runner

    events = []
    answers = iter([(1, True), (2, False), (3, True), (4, True), (5, True), (6, False)])

    def claim_and_run_next():
        events.append("look")
        answer = next(answers, None)
        if answer is None:  # a runner that never naps ends here, its looks counted
            raise asyncio.CancelledError
        return answer

    async def nap():
        events.append("nap")
        if events.count("nap") == 2:
            raise asyncio.CancelledError

    monkeypatch.setattr(runner, "claim_and_run_next", claim_and_run_next)
    monkeypatch.setattr(runner, "nap", nap)
    monkeypatch.setattr(runner, "idle_work", lambda: None)
    monkeypatch.setattr(runner, "RUN_LIMIT", 3)
    monkeypatch.setattr(runner.heartbeat.Pacemaker, "due", lambda self: False)

    async def run():
        with pytest.raises(asyncio.CancelledError):
            await runner.run_tables_forever()

    asyncio.run(run())
    assert events == ["look", "look", "nap", "look", "look", "look", "look", "nap"]


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite serves every call in one thread: no other runner can look",
)
@pytest.mark.django_db(transaction=True)
def test_a_claimed_game_is_skipped_by_another_runner_that_takes_the_next(alice, bob):
    """Two runners at once: the one that looks while the other holds the game due longest
    takes the next (``SKIP LOCKED``), and both know another game is due; with none left
    unlocked, the second finds nothing. One statement a claim."""
    import threading

    from django.db import transaction
    from django.test.utils import CaptureQueriesContext

    from games.table import runner

    first = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    second = services.game_create(creator=bob, target=10, seat_kinds=["me", "random", "random"])
    Game.objects.update(due_at=None)
    Game.objects.filter(pk=first.pk).update(due_at=timezone.now() - timedelta(seconds=5))
    Game.objects.filter(pk=second.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    seen = []

    def other_runner():
        try:
            with transaction.atomic():
                seen.append(runner._claim_due(timezone.now()))
                looked.set()
                held.wait(10)  # keeps the second game until the main runner has looked
        finally:
            connection.close()

    looked, held = threading.Event(), threading.Event()
    with transaction.atomic():
        with CaptureQueriesContext(connection) as reads:
            mine = runner._claim_due(timezone.now())
        assert len(reads.captured_queries) == 1
        game, more = mine
        assert game.pk == first.pk and more is True
        # the whole row, as it is locked: the due work reads it no more
        assert game == Game.objects.get(pk=first.pk)
        assert game.seed == first.seed and game.status == Game.Status.IN_PROGRESS
        assert abs(game.due_at - (timezone.now() - timedelta(seconds=5))) < timedelta(seconds=2)
        thread = threading.Thread(target=other_runner)
        thread.start()
        assert looked.wait(10)  # a runner that waited for our lock would never look
        assert seen[0][0].pk == second.pk and seen[0][1] is True
    held.set()
    thread.join()
    Game.objects.filter(pk=first.pk).update(due_at=None)
    assert runner._claim_due(timezone.now())[0].pk == second.pk  # released: its turn now


def test_an_ended_game_stays_due_until_it_is_queued_for_rating(alice, monkeypatch):
    from ratings import queue

    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    serve_due(game.pk)
    flow.resign(game_id=game.pk, user=alice)

    def fails(**kwargs):
        raise RuntimeError("the ratings queue is unreachable")

    monkeypatch.setattr("ratings.receivers.game_queue", fails)
    with pytest.raises(RuntimeError):
        flow.run_due(game.pk)
    assert Game.objects.get(pk=game.pk).due_at is not None  # still due: tried again later
    monkeypatch.setattr("ratings.receivers.game_queue", queue.game_queue)
    assert flow.run_due(game.pk)
    assert Game.objects.get(pk=game.pk).due_at is None
    assert queue.queued_rate() == 1  # the ratings lane's part
    assert game.rating_events.count() == 3


@pytest.mark.parametrize("choice, trick_pause", [("fast", 0.8), ("normal", 1.5), ("slow", 3.0)])
def test_a_bot_leading_after_a_trick_waits_so_people_see_who_took_it(
    alice, settings, choice, trick_pause, monkeypatch
):
    """With bots pausing (the site's setting), a bot that answers waits the bot pause, and
    one that leads after a won trick waits the person's chosen trick pause (fast, normal or
    slow; never shorter than the bot pause): the trick stays in view as long as they like.

    The clock stands still: a row saved a moment after its move was scheduled (the deal's
    ``updated_at``) would shorten the pause read here by however long that moment took."""
    frozen = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: frozen)
    settings.COINS_BOT_PAUSE, settings.COINS_TRICK_PAUSE = 0.8, 1.5
    alice.profile.trick_pause = choice
    alice.profile.save()
    game = services.game_create(creator=alice, target=20, seat_kinds=["me", "random", "random"])
    seen = set()
    for _card in range(60):
        fresh = Game.objects.get(pk=game.pk)
        loaded = game_load(fresh)
        state = loaded.state
        if loaded.seats[state.to_play].user_id:
            card = CARD_CODES[min(state.hands[state.to_play])]
            flow.play_card(game_id=game.pk, user=alice, card=card)
        else:
            leads = not state.trick and state.last_trick is not None
            pause = (fresh.due_at - fresh.updated_at).total_seconds()
            assert pause == pytest.approx(trick_pause if leads else 0.8, abs=1e-6), (leads, pause)
            seen.add(leads)
            serve_due(game.pk, later=LATER)
    assert seen == {True, False}


def test_at_a_table_of_people_the_bots_wait_for_the_slowest_reader(alice, bob, settings):
    settings.COINS_TRICK_PAUSE = 1.5
    bob.profile.trick_pause = "slow"
    bob.profile.save()
    game = clocked_game(alice, bob)
    seats = game_load(Game.objects.get(pk=game.pk)).seats
    assert lifecycle.trick_pause(seats) == 3.0
    bob.profile.trick_pause = "fast"
    bob.profile.save()
    seats = game_load(Game.objects.get(pk=game.pk)).seats
    assert lifecycle.trick_pause(seats) == 1.5  # alice reads at the normal pace


def test_a_board_read_just_before_a_move_shows_the_game_as_its_row_says(alice):
    """A page or push reads the game row, then a card commits before it loads the plays:
    the state is rebuilt up to the row's move count, never with the later card."""
    from games.table import state_cache
    from games.table.loading import game_load

    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    stale = Game.objects.get(pk=game.pk)
    serve_due(game.pk)  # the bots play up to alice
    loaded = game_load(Game.objects.get(pk=game.pk))
    flow.play_card(game_id=game.pk, user=alice, card=CARD_CODES[loaded.state.hands[0][0]])
    state_cache.clear()
    assert Game.objects.get(pk=game.pk).moves > stale.moves
    state = game_load(stale).state  # still the first hand: 48 cards dealt
    assert 48 - sum(len(hand) for hand in state.hands) == stale.moves


def lowest_card(game: Game, seat: int) -> str:
    return CARD_CODES[min(game_load(Game.objects.get(pk=game.pk)).state.hands[seat])]


def test_a_person_s_next_turns_leave_the_idle_check_where_it_is(alice, settings):
    """``due_at`` is indexed: a card that moved it could never be a HOT update of the game
    row. With the bots answering at once, alice's turns come one after another and the look
    at the table set at the first stays put."""
    settings.COINS_BOT_PAUSE = 0
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    game = wait_for_turn(game, 0)
    flow.play_card(game_id=game.pk, user=alice, card=lowest_card(game, 0))
    first = Game.objects.get(pk=game.pk)
    assert first.to_play == 0 and first.turn_deadline is None
    assert timedelta(minutes=9) < first.due_at - timezone.now() <= lifecycle.IDLE_CHECK
    flow.play_card(game_id=game.pk, user=alice, card=lowest_card(game, 0))
    second = Game.objects.get(pk=game.pk)
    assert second.moves > first.moves and second.updated_at > first.updated_at
    assert second.due_at == first.due_at


def test_a_look_set_at_an_earlier_turn_waits_ten_minutes_from_the_last_card(alice, settings):
    """Alice played her last card nine minutes after the look was set: when it falls due she
    has not been idle ten minutes, so nothing happens but a later look; then, still gone,
    the game is abandoned."""
    settings.COINS_BOT_PAUSE = 0
    game = services.game_create(creator=alice, target=10, seat_kinds=["me", "random", "random"])
    game = wait_for_turn(game, 0)
    look = Game.objects.get(pk=game.pk).due_at
    last_card = look - timedelta(minutes=1)
    Game.objects.filter(pk=game.pk).update(updated_at=last_card)

    assert flow.run_due(game.pk, now=look + timedelta(seconds=1)).cards == 0
    game = Game.objects.get(pk=game.pk)
    assert game.is_running and not Seat.objects.get(game=game, number=0).stand_in
    assert game.due_at == last_card + lifecycle.IDLE_CHECK

    assert flow.run_due(game.pk, now=game.due_at + timedelta(seconds=1)).cards == 0
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.ABANDONED and game.abandoned_by == 0


def test_only_a_recent_idle_check_of_a_game_under_way_is_left_where_it_is():
    now, idle = timezone.now(), lifecycle.IDLE_CHECK

    def kept(due_at, moves=5) -> bool:
        return lifecycle.idle_check_pending(Game(moves=moves, due_at=due_at), now)

    assert kept(now + idle) and kept(now + idle * 0.6)
    assert not kept(now + idle * 0.4)  # set over five minutes ago: moved on to the new turn
    assert not kept(now + timedelta(seconds=1))  # a bot's pause or a search bot's lease
    assert not kept(now - timedelta(seconds=1)) and not kept(None)
    assert not kept(now + idle, moves=0)  # a waiting table's look, not a turn's
