"""A person's card in one statement on a cached game (``games/table/unlocked.py``): what it
writes is what the locked path writes, and a row that changed meanwhile gets nothing.

On PostgreSQL, outside a test transaction (the path is off inside an outer one). Where a
test needs one statement to wait on another's lock it watches ``pg_stat_activity`` for the
wait, never a clock.
"""

import threading

import pytest
from django.db import connection, connections
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import CARD_CODES
from games.models import Game, Hand, Play, PlayerStats, Presence, Seat
from games.realtime.push import notices_kept
from games.table import flow, state_cache
from games.table import seats as services
from games.table.errors import TableMovedOn
from games.table.loading import game_load
from games.table.unlocked import play_unlocked
from tests.games.helpers import serve_due
from tests.games.test_services import engine_tricks, trick_rows

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="one statement on PostgreSQL"),
]

GUARDED = "WITH guard AS ("
CONTROL = {"BEGIN", "COMMIT", "ROLLBACK"}  # Django logs these whether or not they are sent


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"] not in CONTROL]


@pytest.fixture
def commands_sent(monkeypatch) -> list[bytes]:
    """What psycopg itself sends to PostgreSQL outside statements (``BEGIN``, ``COMMIT``)."""
    from psycopg._connection_base import BaseConnection

    sent: list[bytes] = []
    original = BaseConnection._exec_command

    def recorded(self, command, *args, **kwargs):
        sent.append(bytes(command) if isinstance(command, bytes | bytearray) else command)
        return original(self, command, *args, **kwargs)

    monkeypatch.setattr(BaseConnection, "_exec_command", recorded)
    return sent


def a_game(user, target: int = 10) -> Game:
    """A game against two bots at the person's first turn, cached as a board leaves it
    (a target above 12, what one hand hands out, is reached in a later hand)."""
    game = services.game_quick_play(user=user, bot="careful", target=target)
    while game_load(game := Game.objects.get(pk=game.pk)).state.to_play != 0:
        serve_due(game.pk)  # the bots lead first: their cards, as the runner plays them
    state_cache.clear()
    game_load(game)
    return game


def first_card(game: Game) -> str:
    state = game_load(Game.objects.get(pk=game.pk)).state
    assert state.to_play == 0
    return CARD_CODES[state.hands[0][0]]


def play(game: Game, user, card: str, **kwargs):
    return flow.play_card(game_id=game.pk, user=user, card=card, seed=game.seed, **kwargs)


def test_a_card_on_a_cached_game_is_one_statement_and_the_bots_answer(alice, commands_sent):
    game = a_game(alice)
    card = first_card(game)
    commands_sent.clear()
    with CaptureQueriesContext(connection) as queries:
        result = play(game, alice, card, after_moves=game.moves)
    assert [sql[: len(GUARDED)] for sql in statements(queries)] == [GUARDED]
    assert commands_sent == []  # no BEGIN, no COMMIT: the statement commits on its own
    assert not connection.in_atomic_block and connection.connection.autocommit
    row, n = Game.objects.get(pk=game.pk), game.moves
    assert row.moves == result.moves == n + result.played  # with the bots' answers, if due
    sequences = Play.objects.filter(game=game).values_list("sequence", flat=True)
    assert list(sequences) == list(range(row.moves))
    assert Play.objects.get(game=game, sequence=n).card == card
    assert row.updated_at == result.loaded.game.updated_at  # the cache's copy is the row


def test_whole_games_written_in_one_statement_agree_with_the_engine(alice):
    """Every card in one statement, new deals and the game's last card included. The rows
    end exactly as the engine says (hands, tricks, scores, winner), and the won game is
    settled as ``seats_settle`` settles it: each seat's outcome, the person's stats."""
    one_statement = locked = wins = 0
    for round_ in range(2):
        game = a_game(alice, target=20)
        while (row := Game.objects.get(pk=game.pk)).status == Game.Status.IN_PROGRESS:
            state = game_load(row).state
            with CaptureQueriesContext(connection) as queries:
                play(game, alice, CARD_CODES[state.hands[0][0]], shown_moves=row.moves)
            sent = statements(queries)
            fast = sent[0].startswith(GUARDED)
            one_statement += fast and len(sent) == 1
            locked += not fast or len(sent) > 1
        dealt = [[CARD_CODES[c] for c in hand.deck] for hand in state.hand_log]  # the copy's
        state_cache.clear()  # the rows alone, replayed through the engine
        final = game_load(Game.objects.get(pk=game.pk)).state
        assert trick_rows(game) == engine_tricks(final)
        scores = list(Seat.objects.filter(game=game).order_by("number").values_list("score"))
        assert [s for (s,) in scores] == final.scores
        assert Game.objects.get(pk=game.pk).winner_seat == final.winner is not None
        decks = Hand.objects.filter(game=game).order_by("number").values_list("deck", flat=True)
        assert len(dealt) > 1 and list(decks) == dealt
        outcomes = Seat.objects.filter(game=game).order_by("number").values_list("outcome")
        assert [o for (o,) in outcomes] == [
            "won" if number == final.winner else "lost" for number in range(3)
        ]
        wins += final.winner == 0  # alice sits in seat 0
        stats = PlayerStats.objects.get(user=alice)
        assert (stats.finished, stats.won, stats.abandoned) == (round_ + 1, wins, 0)
    assert locked == 0 and one_statement > 40, (one_statement, locked)


def test_a_copy_older_than_the_row_writes_nothing_and_the_lock_decides(alice):
    game = a_game(alice)
    key = (game.pk, game.seed)
    old = state_cache.get(key, game.moves)
    n = game.moves
    play(game, alice, first_card(game))  # three moves on
    state_cache.put(key, old)  # as a process that missed that card would hold it
    plays = Play.objects.filter(game=game).count()
    card = first_card(game)
    with pytest.raises(TableMovedOn):  # chosen on the older board: refused, as locked
        play(game, alice, card, after_moves=n)
    assert Play.objects.filter(game=game).count() == plays
    state_cache.put(key, old)
    with CaptureQueriesContext(connection) as queries:
        result = play(game, alice, card, shown_moves=n)  # no move count sent: played on
    sent = statements(queries)
    assert sent[0].startswith(GUARDED) and len(sent) > 1  # tried, then played under the lock
    assert result.moves == plays + result.played == Play.objects.filter(game=game).count()
    assert Play.objects.get(game=game, sequence=plays).card == card


def test_a_seat_change_saved_meanwhile_sends_the_card_under_the_lock(alice):
    game = a_game(alice)
    card = first_card(game)
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())  # a profile change
    with CaptureQueriesContext(connection) as queries:
        result = play(game, alice, card, after_moves=game.moves)
    sent = statements(queries)
    assert sent[0].startswith(GUARDED) and len(sent) > 1
    assert result.moves == game.moves + result.played == Play.objects.filter(game=game).count()


def _wait_for_lock_wait(pid: int) -> None:
    """Return once backend ``pid`` waits on a lock (read from PostgreSQL, not timed)."""
    with connections["default"].cursor() as cursor:
        while True:
            cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone()[0] == "Lock":
                return


def _in_thread(target) -> tuple[threading.Thread, dict]:
    out: dict = {}

    def run():
        try:
            out["pid"] = connection.cursor().connection.info.backend_pid
            out["ready"].set()
            out["result"] = target()
        except Exception as error:
            out["error"] = error
        finally:
            connection.close()

    out["ready"] = threading.Event()
    thread = threading.Thread(target=run)
    thread.start()
    out["ready"].wait()
    return thread, out


def holding_the_row(game: Game, change: str = ""):
    """A second connection holding the game row's lock (and ``change`` made under it): one
    that a new row pointing at the game (a presence) does not wait for."""
    other = connections.create_connection("default")
    other.set_autocommit(False)
    with other.cursor() as cursor:
        cursor.execute("SELECT 1 FROM games_game WHERE id = %s FOR NO KEY UPDATE", [game.pk])
        if change:
            cursor.execute(change, [game.pk])
    return other


def test_a_card_waiting_on_a_change_under_way_writes_nothing_once_it_commits(alice):
    game = a_game(alice)
    card = first_card(game)
    other = holding_the_row(game, "UPDATE games_game SET updated_at = now() WHERE id = %s")
    thread, out = _in_thread(lambda: play(game, alice, card, after_moves=game.moves))
    _wait_for_lock_wait(out["pid"])  # the one statement waits on the row
    other.commit()
    other.close()
    thread.join()
    assert "error" not in out, out.get("error")
    result = out["result"]  # played again under the lock, once
    assert result.moves == game.moves + result.played == Play.objects.filter(game=game).count()


def test_a_socket_that_arrived_while_the_card_waited_is_told(alice):
    """The statement's snapshot is older than the lock it waited for: who else is at the
    table is read after the lock (migration 0023), so a socket whose row committed in
    between is seen, and the move is broadcast to it."""
    game = a_game(alice)
    card = first_card(game)
    other = holding_the_row(game)  # a lock, no change: the card goes ahead after it

    def move_and_notices():
        with notices_kept() as notices:
            moves = play(game, alice, card, after_moves=game.moves, skip_channel="mover").moves
        return notices, moves

    thread, out = _in_thread(move_and_notices)
    _wait_for_lock_wait(out["pid"])
    Presence.objects.create(game=game, channel="watcher", seen_at=timezone.now())
    other.commit()
    other.close()
    thread.join()
    assert "error" not in out, out.get("error")
    notices, moves = out["result"]
    assert notices == [(game.pk, moves, "mover", True)]  # told: someone else is there now
    assert Game.objects.get(pk=game.pk).moves == moves > game.moves


def test_alone_at_the_table_the_move_tells_no_one(alice):
    game = a_game(alice)
    Presence.objects.create(game=game, channel="mover", seen_at=timezone.now())
    with notices_kept() as notices:
        moves = play(game, alice, first_card(game), after_moves=game.moves, skip_channel="mover")
    assert notices == [(game.pk, moves.moves, "mover", False)]


@pytest.mark.asyncio
@pytest.mark.usefixtures("table_runner")
async def test_a_socket_s_cards_go_in_one_statement_through_a_whole_game(alice, monkeypatch):
    """The site's own path: a person's socket plays a game to its end against two bots
    (answered by the table runner, as on a server); most of its cards take the one
    statement, on the socket's event loop (``games/realtime/loop_card.py``) or, where the
    loop hands a card on, in a database thread, and the rows end as the engine says."""
    from games.realtime import consumers
    from tests.games.sockets import Client, db

    outcomes = []  # per card: whether it went in the one statement
    on_loop = consumers.play_on_loop

    async def loop_counted(*args, **kwargs):
        result = await on_loop(*args, **kwargs)
        if isinstance(result, tuple):
            outcomes.append(True)
        elif result is not None:  # straight to the lock: no try on a copy in a thread
            outcomes.append(False)
        return result

    def counted(*args, **kwargs):
        result = play_unlocked(*args, **kwargs)
        outcomes.append(result is not None)
        return result

    monkeypatch.setattr(consumers, "play_on_loop", loop_counted)
    monkeypatch.setattr(flow, "play_unlocked", counted)
    game = await db(a_game)(alice)
    client = Client(game.pk, alice, 0)
    await client.connect()
    _, played = await client.play_to_the_end()
    await client.close()
    assert played == len(outcomes) > 10
    assert sum(outcomes) > 0.7 * played, outcomes
    assert outcomes[-1] is True  # the game's last card too
    state_cache.clear()  # the rows alone, replayed through the engine
    final = await db(lambda: game_load(Game.objects.get(pk=game.pk)))()
    assert final.game.status == Game.Status.FINISHED
    assert await db(trick_rows)(game) == engine_tricks(final.state)


def test_a_hands_last_card_deals_the_next_in_the_one_statement_played_once(alice):
    """The person's last card of a hand, the bots' answers and the new deal (its hand row
    and the first cards of its first trick) go in the one statement, played once on the
    copy; the next hand goes on from the copy too."""
    game = a_game(alice, target=20)
    hand = game_load(Game.objects.get(pk=game.pk)).state.hand_number
    while True:
        fresh = Game.objects.get(pk=game.pk)
        state = game_load(fresh).state
        last = len(state.hands[0]) == 1
        card = CARD_CODES[state.legal_cards(0)[0]]
        with CaptureQueriesContext(connection) as queries:
            play(game, alice, card, after_moves=fresh.moves)
        assert [sql[: len(GUARDED)] for sql in statements(queries)] == [GUARDED]
        if last:
            break
    after = Game.objects.get(pk=game.pk)
    assert after.is_running
    state = game_load(after).state
    assert state.hand_number == hand + 1
    assert Hand.objects.filter(game=game, number=hand + 1).get().deck == [
        CARD_CODES[c] for c in state.current_hand.deck
    ]
    fresh = Game.objects.get(pk=game.pk)
    with CaptureQueriesContext(connection) as queries:
        play(game, alice, CARD_CODES[state.legal_cards(0)[0]], after_moves=fresh.moves)
    assert [sql[: len(GUARDED)] for sql in statements(queries)] == [GUARDED]


def test_a_stale_copy_at_the_hands_end_deals_nothing_and_the_lock_deals_once(alice):
    """The new hand's row waits on the guard like every other part: a copy older than the
    row inserts no hand (the locked path's deal would then collide with it)."""
    game = a_game(alice, target=20)
    while len((state := game_load(fresh := Game.objects.get(pk=game.pk)).state).hands[0]) > 1:
        play(game, alice, CARD_CODES[state.legal_cards(0)[0]], after_moves=fresh.moves)
    hands = Hand.objects.filter(game=game).count()
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())  # a profile change
    with CaptureQueriesContext(connection) as queries:
        result = play(game, alice, CARD_CODES[state.legal_cards(0)[0]], after_moves=fresh.moves)
    sent = statements(queries)
    assert sent[0].startswith(GUARDED) and len(sent) > 1  # tried, then played under the lock
    assert Hand.objects.filter(game=game).count() == hands + 1
    assert result.moves == fresh.moves + result.played == Play.objects.filter(game=game).count()


def _stale_before_each_card_to_the_end(game: Game, user) -> None:
    """Play ``user``'s cards to the game's end, each on a copy older than the row (a
    profile change saved meanwhile): each goes to the lock after its guarded try."""
    while (row := Game.objects.get(pk=game.pk)).status == Game.Status.IN_PROGRESS:
        state = game_load(row).state
        Game.objects.filter(pk=game.pk).update(updated_at=timezone.now())
        with CaptureQueriesContext(connection) as queries:
            play(game, user, CARD_CODES[state.legal_cards(0)[0]], after_moves=row.moves)
        sent = statements(queries)
        assert sent[0].startswith(GUARDED) and len(sent) > 1


def test_a_stale_copy_of_the_last_card_settles_nothing_and_the_lock_settles_once(alice):
    """The won game's outcomes and stats wait on the guard like every other part."""
    game = a_game(alice)
    _stale_before_each_card_to_the_end(game, alice)
    stats = PlayerStats.objects.get(user=alice)
    assert (stats.finished, stats.abandoned) == (1, 0)
    assert set(Seat.objects.filter(game=game).values_list("outcome", flat=True)) <= {"won", "lost"}


def test_seats_settled_already_are_not_counted_again(alice):
    """As ``seats_settle``: a game's people are counted once, where its seats had no
    outcome yet as the statement began (the lock's path, which writes no guard)."""
    game = a_game(alice)
    Seat.objects.filter(game=game).update(outcome="lost")  # as if settled (no row change)
    with override_settings(COINS_UNLOCKED_MOVES=False):
        while (row := Game.objects.get(pk=game.pk)).status == Game.Status.IN_PROGRESS:
            state = game_load(row).state
            play(game, alice, CARD_CODES[state.legal_cards(0)[0]], after_moves=row.moves)
    assert not PlayerStats.objects.filter(user=alice, finished__gt=0).exists()
    assert set(Seat.objects.filter(game=game).values_list("outcome", flat=True)) == {"lost"}
