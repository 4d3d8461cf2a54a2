"""Who hears of a person's move: the move's own statement says whether another socket is at
the table, so a table nobody else watches costs no channel-layer round trip; and a socket
opening while a move is under way still shows that move (on PostgreSQL, where the two
really overlap)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import CARD_CODES
from games.models import Game, Presence
from games.realtime.push import notices_kept
from games.table import flow
from games.table import seats as services
from games.table.lifecycle import game_after_writers, locked_game
from games.table.loading import game_load

from .helpers import serve_due

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the one move statement"),
]


def socket_at(game: Game, channel: str) -> None:
    Presence.objects.create(game=game, channel=channel, seen_at=timezone.now())


def play_first_card(game: Game, user, channel: str) -> tuple:
    """The person's first card, made from the socket ``channel``; return its notice."""
    serve_due(game.pk)  # a bot that leads the game plays first
    hand = game_load(Game.objects.get(pk=game.pk)).state.hands[0]
    with notices_kept() as notices:
        flow.play_card(game_id=game.pk, user=user, card=CARD_CODES[hand[0]], skip_channel=channel)
    (notice,) = notices
    return notice


def test_the_move_says_whether_another_socket_is_at_the_table(alice, settings):
    settings.COINS_BOT_PAUSE = 0  # the bots answer inside the person's move
    game = services.game_quick_play(user=alice)
    socket_at(game, "mover")
    game_id, moves, skip, others = play_first_card(game, alice, "mover")
    assert (game_id, skip, others) == (game.pk, "mover", False)
    assert moves == Game.objects.get(pk=game.pk).moves

    socket_at(game, "watcher")  # a spectator's socket (stale or not: unsure means tell)
    assert play_first_card(game, alice, "mover")[3] is True

    Presence.objects.filter(channel="watcher").delete()
    socket_at(services.game_quick_play(user=alice), "elsewhere")
    assert play_first_card(game, alice, "mover")[3] is False  # another table's socket


def waiting_on_a_lock(fragment: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND query LIKE %s",
            [f"%{fragment}%"],
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_a_first_board_reads_the_game_in_one_statement(alice):
    """The read that waits for a move under way needs no transaction around it: one round
    trip, where BEGIN, the read and COMMIT were three."""
    game = services.game_quick_play(user=alice)
    with CaptureQueriesContext(connection) as queries:
        assert game_after_writers(game.pk).moves == game.moves
    assert [q["sql"].split()[0] for q in queries.captured_queries] == ["SELECT"]
    assert "FOR KEY SHARE" in queries.captured_queries[0]["sql"]


def test_a_first_board_waits_for_a_move_under_way(alice):
    """The move's statement may have counted the table's sockets before this one's row was
    committed (then it tells no one else): the first board's read waits for the move's
    lock and shows the move."""
    game = services.game_quick_play(user=alice)
    locked, release = threading.Event(), threading.Event()

    def move_under_way():
        try:
            with transaction.atomic():
                locked_game(game.pk)
                locked.set()
                assert release.wait(30)
                Game.objects.filter(pk=game.pk).update(moves=F("moves") + 1)
        finally:
            connections.close_all()

    def first_read() -> int:
        try:
            return game_after_writers(game.pk).moves
        finally:
            connections.close_all()

    mover = threading.Thread(target=move_under_way)
    mover.start()
    assert locked.wait(30)
    with ThreadPoolExecutor(1) as pool:
        read = pool.submit(first_read)
        for _ in range(600):  # until the read is seen waiting on the game row's lock
            if waiting_on_a_lock("FOR KEY SHARE") or read.done():
                break
            time.sleep(0.05)
        assert not read.done()  # it waits: it cannot show the game before the move
        release.set()
        mover.join(30)
        assert read.result(30) == game.moves + 1
