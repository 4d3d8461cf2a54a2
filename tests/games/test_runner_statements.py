"""What a runner's bot card costs the database, as the site plays it (bots pause, so each of
their cards is the runner's): the claim reads and locks the game row in one statement, and the
card is written in the claim's transaction with no savepoint and no second read."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.engine import CARD_CODES
from games.models import Game, Play
from games.table import flow, runner, state_cache
from games.table import seats as services
from games.table.loading import game_load

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the statements counted are PostgreSQL's"
    ),
    pytest.mark.django_db(transaction=True),
]


def _due_now(game: Game) -> None:
    """The bot's pause is over (its card waits on ``due_at`` only)."""
    Game.objects.filter(pk=game.pk).update(due_at=timezone.now() - timedelta(seconds=1))


def test_a_runners_bot_card_is_four_round_trips_with_the_game_cached(alice, settings):
    settings.COINS_BOT_PAUSE = 0.8  # as on the site: every bot card is a runner's
    game = services.game_create(creator=alice, target=10, seat_kinds=["random", "me", "random"])
    served = []  # the statements of each bot card the runner served
    while len(served) < 6:
        loaded = game_load(Game.objects.get(pk=game.pk))
        seat = loaded.state.to_play
        if seat == 1:
            card = CARD_CODES[loaded.state.legal_cards(1)[0]]
            flow.play_card(game_id=game.pk, user=alice, card=card)
            continue
        moves = loaded.game.moves
        _due_now(game)
        with CaptureQueriesContext(connection) as statements:
            assert runner.claim_and_run_next() == (game.pk, False)
        assert Game.objects.get(pk=game.pk).moves == moves + 1  # one bot card, kept
        assert Play.objects.filter(game=game, sequence=moves, seat=seat).exists()
        served.append([query["sql"] for query in statements.captured_queries])
    for sql in served:
        assert len(sql) == 4, sql
        assert sql[0] == "BEGIN" and sql[-1] == "COMMIT"
        assert sql[1].startswith('SELECT g."id"') and sql[1].endswith("FOR UPDATE SKIP LOCKED")
        assert "SAVEPOINT" not in " ".join(sql)


def test_a_runner_that_never_saw_the_game_reads_its_seats_and_plays_only(alice, settings):
    """Another process played the last card: this one rebuilds the game from two reads, and
    still reads the game row only in its claim."""
    settings.COINS_BOT_PAUSE = 0.8
    game = services.game_create(creator=alice, target=10, seat_kinds=["random", "me", "random"])
    loaded = game_load(Game.objects.get(pk=game.pk))
    if loaded.state.to_play == 1:
        flow.play_card(
            game_id=game.pk, user=alice, card=CARD_CODES[loaded.state.legal_cards(1)[0]]
        )
    state_cache.clear()
    _due_now(game)
    with CaptureQueriesContext(connection) as statements:
        assert runner.claim_and_run_next() == (game.pk, False)
    sql = [query["sql"] for query in statements.captured_queries]
    assert len(sql) == 6, sql
    assert sum('FROM "games_game"' in s.split(" WHERE ")[0] for s in sql) == 1
