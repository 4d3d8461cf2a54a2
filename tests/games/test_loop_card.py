"""A person's card played on the socket's event loop (``games/realtime/loop_card.py``): one
statement on the loop's own connection, the board sent only once it has committed, and
every case the loop cannot decide handed to the database threads' path with nothing
written, or, when a statement's fate is unknown, found there already played."""

import asyncio

import psycopg
import pytest
from django.db import connection
from django.utils import timezone
from psycopg import OperationalError
from psycopg.pq import TransactionStatus

from games.models import Game, Hand, Play
from games.realtime import consumers, loop_card, loop_db
from games.table import state_cache
from tests.games.helpers import assert_no_hidden_cards, board_moves, can_play, hand_cards
from tests.games.sockets import Client, at_my_turn, db, scan_frames

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("table_runner"),  # the bots' cards before the person's first turn
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the loop's connections"),
]


@pytest.fixture
def thread_cards(monkeypatch) -> list[str]:
    """The cards a socket handed to a database thread (``play_and_render``)."""
    handed: list[str] = []
    real = consumers.play_and_render

    def spy(game_id, request, card, *args, **kwargs):
        handed.append(card)
        return real(game_id, request, card, *args, **kwargs)

    monkeypatch.setattr(consumers, "play_and_render", spy)
    return handed


@pytest.fixture
def loop_statements(monkeypatch) -> list[str]:
    """The statements sent on the loop's connections."""
    sent: list[str] = []
    real = loop_db.LoopConnections.fetch_one

    async def spy(self, sql, params, prepare):
        sent.append(sql)
        return await real(self, sql, params, prepare)

    monkeypatch.setattr(loop_db.LoopConnections, "fetch_one", spy)
    return sent


def cards_played(game: Game) -> list[str]:
    return list(Play.objects.filter(game=game).order_by("sequence").values_list("card", flat=True))


async def played_once(game: Game, card: str, board: str) -> None:
    """``card`` is in the rows once, and ``board`` shows every card played."""
    played = await db(cards_played)(game)
    assert played.count(card) == 1 and board_moves(board) == len(played)


async def play_first_card(client: Client, board: str) -> tuple[str, str]:
    """Play the hand's first card as the page sends it; return it and the board after it."""
    card, moves = hand_cards(board)[0], board_moves(board)
    await client.send({"card": card, "moves": moves, "HEADERS": {"HX-Request": "true"}})
    return card, await client.board_where(lambda frame: board_moves(frame) > moves)


async def test_a_card_goes_in_one_statement_on_the_loop_and_the_others_hear(
    alice, bob, thread_cards, loop_statements
):
    game, client, board = await at_my_turn(alice)
    watcher = Client(game.pk, bob)
    await watcher.connect()
    await watcher.board_where(lambda frame: True)
    card, after = await play_first_card(client, board)
    assert thread_cards == []
    assert len(loop_statements) == 1 and loop_statements[0].startswith("WITH guard AS (")
    played = await db(cards_played)(game)
    assert played[board_moves(board)] == card
    assert board_moves(after) == len(played)  # the bots' answers came in the same statement
    row = await db(Game.objects.get)(pk=game.pk)
    assert row.moves == len(played)
    await watcher.board_where(lambda frame: board_moves(frame) == row.moves)
    await scan_frames(client, game)
    for frame in watcher.frames:
        await db(assert_no_hidden_cards)(frame, game, None)
    await watcher.close()
    await client.close()


async def test_the_statement_is_with_postgresql_while_the_board_is_rendered(
    alice, thread_cards, monkeypatch
):
    """The board's render is hidden behind the statement: with a connection open, the
    statement has been sent (libpq: a command in progress) before the render starts."""
    game, client, board = await at_my_turn(alice)
    executing: list[psycopg.AsyncCursor] = []
    at_render: list[TransactionStatus | None] = []
    real_execute, real_render = psycopg.AsyncCursor.execute, loop_card.render_board

    def execute(self, *args, **kwargs):
        executing.append(self)
        return real_execute(self, *args, **kwargs)

    def render(*args, **kwargs):
        status = executing[-1].connection.pgconn.transaction_status if executing else None
        at_render.append(status)
        return real_render(*args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", execute)
    monkeypatch.setattr(loop_card, "render_board", render)
    _, after = await play_first_card(client, board)  # the first card opens the connection
    after = await client.board_where(can_play)
    card, after = await play_first_card(client, after)
    assert thread_cards == [] and len(executing) == 2
    assert at_render[-1] == TransactionStatus.ACTIVE
    await played_once(game, card, after)
    await client.close()


async def test_with_the_query_log_and_laps_on_each_card_on_the_loop_logs_its_laps(
    alice, thread_cards, settings, tmp_path
):
    """For the table benchmark: a card played on the loop appends its four laps (its turn
    waited for, played on the copy, sent and rendered, the statement's rest), each as wall
    and CPU milliseconds, beside its statement count."""
    log = tmp_path / "queries.log"
    settings.COINS_QUERY_LOG, settings.COINS_CARD_LAPS = str(log), True
    game, client, board = await at_my_turn(alice)
    card, after = await play_first_card(client, board)
    await played_once(game, card, after)
    await client.close()
    lines = [line.split() for line in log.read_text().splitlines()]
    laps = [[float(n) for n in numbers] for kind, *numbers in lines if kind == "card"]
    assert thread_cards == [] and len(laps) == 1 and len(laps[0]) == 8
    assert all(lap >= 0 for lap in laps[0])
    assert next(line[:3] for line in lines if line[0] == "human") == ["human", "1", "1"]


async def test_a_row_changed_since_the_copy_writes_nothing_and_the_lock_plays_it(
    alice, thread_cards, loop_statements
):
    """Another process changed the game row (a seat's change saves it): the loop's
    statement finds it so and writes nothing; the card is played under the lock, once."""
    game, client, board = await at_my_turn(alice)
    await db(Game.objects.filter(pk=game.pk).update)(updated_at=timezone.now())
    card, after = await play_first_card(client, board)
    assert len(loop_statements) == 1 and thread_cards == [card]
    await played_once(game, card, after)
    await client.close()


async def test_a_database_error_before_the_statement_hands_the_card_to_a_thread(
    alice, thread_cards, monkeypatch
):
    game, client, board = await at_my_turn(alice)

    async def refused(self):
        raise OperationalError("connection refused")

    monkeypatch.setattr(loop_db.LoopConnections, "_take", refused)
    card, after = await play_first_card(client, board)
    assert thread_cards == [card]
    await played_once(game, card, after)
    await client.close()


async def test_a_card_kept_whose_answer_was_lost_is_found_played_not_played_twice(
    alice, thread_cards, monkeypatch
):
    """The statement committed and the connection broke before its row came back: the
    threads' path finds the card played (the page sent its move count) and sends the
    board; the card is in the rows once."""
    game, client, board = await at_my_turn(alice)
    real = loop_db.LoopConnections.fetch_one

    async def lost(self, sql, params, prepare):
        await real(self, sql, params, prepare)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(loop_db.LoopConnections, "fetch_one", lost)
    card, after = await play_first_card(client, board)
    assert thread_cards == [card]
    await played_once(game, card, after)
    assert 'id="table-message"' not in "".join(client.frames[-3:])  # no refusal shown
    await client.close()


async def test_a_board_the_loop_cannot_render_comes_from_a_thread_card_kept(
    alice, thread_cards, monkeypatch
):
    game, client, board = await at_my_turn(alice)

    def broken(*args, **kwargs):
        raise RuntimeError("a template error")

    monkeypatch.setattr(loop_card, "render_board", broken)
    card, after = await play_first_card(client, board)
    assert thread_cards == []  # played on the loop; only its board was rendered elsewhere
    await played_once(game, card, after)
    assert can_play(after)  # the bots answered: the person's turn again
    await client.close()


async def test_a_private_tables_boards_are_rendered_on_the_loop_too(alice, thread_cards, caplog):
    """A private table's board asks other apps how the table is kept (an invite, a
    duplicate's seal), which reads the database: the socket keeps the answer from its first
    board, so its later boards are rendered on the loop as a public table's are."""
    game, client, board = await at_my_turn(alice, public=False)
    for _ in range(3):
        card, board = await play_first_card(client, board)
        await played_once(game, card, board)
        board = await client.board_where(can_play) if not can_play(board) else board
    assert thread_cards == []
    assert "not rendered on the loop" not in caplog.text
    await client.close()


async def test_a_private_tables_result_comes_from_a_thread_its_card_from_the_loop(
    alice, thread_cards, caplog, monkeypatch
):
    """A private table's result asks other apps how the table is kept once it is over (a
    duplicate opens its best results then), which reads the database: the last card goes
    in the loop's statement, and its board alone is rendered in a database thread."""
    rendered: list[int] = []
    real = loop_card.render_for

    def render_for(game_id, *args):
        rendered.append(game_id)
        return real(game_id, *args)

    monkeypatch.setattr(loop_card, "render_for", render_for)
    game, client, _board = await at_my_turn(alice, public=False)
    final, _played = await client.play_to_the_end()
    await client.close()
    assert "game-result" in final and thread_cards == []
    assert rendered == [game.pk]
    assert "not rendered on the loop" not in caplog.text


async def test_a_connection_postgresql_dropped_is_replaced_before_the_next_card(
    alice, thread_cards, loop_statements
):
    """A restart of PostgreSQL (here its backend ended) between two cards: the next card
    notices the dropped connection before using it and goes on the loop on a new one."""
    game, client, board = await at_my_turn(alice)
    _, board = await play_first_card(client, board)
    board = await client.board_where(can_play)
    kept = loop_db.loop_connections()
    assert len(kept.idle) == 1
    pid = kept.idle[0].info.backend_pid

    def end_backend():
        """End it, and return once it has gone (it says so on its socket as it goes)."""
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
            while True:
                cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
                if cursor.fetchone() is None:
                    return

    await db(end_backend)()
    while loop_db.usable(kept.idle[0]):  # its last words on their way (a distant server)
        await asyncio.sleep(0.01)
    card, after = await play_first_card(client, board)
    assert thread_cards == [] and len(loop_statements) == 2
    assert kept.idle[0].info.backend_pid != pid
    await played_once(game, card, after)
    await client.close()


async def test_without_loop_connections_cards_go_to_the_threads(
    alice, thread_cards, loop_statements, settings
):
    settings.COINS_LOOP_CONNECTIONS = 0
    _game, client, board = await at_my_turn(alice)
    card, _ = await play_first_card(client, board)
    assert thread_cards == [card] and loop_statements == []
    await client.close()


async def test_with_every_loop_connection_busy_a_card_goes_to_a_thread(
    alice, thread_cards, monkeypatch
):
    """Statements stuck on the loop's connections (a dead link, say) hold up no card for
    long: past ``SLOT_SECONDS`` it goes to a thread, nothing sent on the loop."""
    game, client, board = await at_my_turn(alice)
    monkeypatch.setattr(loop_db, "SLOT_SECONDS", 0.05)
    monkeypatch.setattr(loop_db.loop_connections(), "slots", asyncio.Semaphore(0))
    card, after = await play_first_card(client, board)
    assert thread_cards == [card]
    await played_once(game, card, after)
    await client.close()


async def test_every_card_of_a_game_is_played_once_on_the_loop_to_its_end(
    alice, monkeypatch, thread_cards, caplog
):
    """New deals and the game's last card go in the one statement too: each card is played
    once, on the copy, and the last board (the result, the ratings on their way) is
    rendered on the loop, with no database thread."""
    from games.table import flow

    tries: dict[int, list[str]] = {}  # the game's move count -> each try of the card
    real_card = flow.person_card

    def person_card(table, **kwargs):
        tries.setdefault(table.game.moves, []).append("lock" if table.guard is None else "copy")
        return real_card(table, **kwargs)

    monkeypatch.setattr(flow, "person_card", person_card)
    game, client, _board = await at_my_turn(alice, target=20)  # reached in a later hand
    final, played = await client.play_to_the_end()
    await client.close()
    assert "game-result" in final and "data-rating-pending" in final
    assert played == len(tries) > 10 and thread_cards == []
    assert all(where == ["copy"] for where in tries.values()), tries
    assert await db(lambda: Hand.objects.filter(game=game).count())() > 1
    assert "not rendered on the loop" not in caplog.text
    outcomes = await db(lambda: sorted(game.seats.values_list("outcome", flat=True)))()
    assert outcomes == ["lost", "lost", "won"]


async def test_a_card_that_needs_the_lock_is_tried_on_no_second_copy(alice, monkeypatch):
    """A card back from absence (its seat's counter of cards played for it goes to 0) takes
    the lock. The loop finds that out on its copy, and the threads' path then takes the
    lock at once: it does not play the card (and the bots' answers) on a copy again."""
    from games.table import flow

    tries: list[str] = []
    real_card, real_unlocked = flow.person_card, flow.play_unlocked

    def person_card(table, **kwargs):
        tries.append("lock" if table.guard is None else "copy")
        return real_card(table, **kwargs)

    def play_unlocked(*args, **kwargs):
        tries.append("threads")
        return real_unlocked(*args, **kwargs)

    game, client, board = await at_my_turn(alice)

    def played_for_while_away():  # in the row and in this process's copy (the row's twin)
        game.seats.filter(number=0).update(auto_in_row=1)
        key = (game.pk, game.seed)
        copy = state_cache.get(key, board_moves(board))
        copy.seats[0].auto_in_row = 1
        state_cache.put(key, copy)

    await db(played_for_while_away)()
    monkeypatch.setattr(flow, "person_card", person_card)
    monkeypatch.setattr(flow, "play_unlocked", play_unlocked)
    card, after = await play_first_card(client, board)
    await client.close()
    assert tries == ["copy", "lock"]
    await played_once(game, card, after)
    assert await db(lambda: game.seats.get(number=0).auto_in_row)() == 0
