"""The runner's background work (a recompute of every rating, say) runs beside the tables:
while it takes its time, the bots keep playing."""

import asyncio
import threading

from channels.db import database_sync_to_async

from games.engine import CARD_CODES
from games.models import Game
from games.signals import runner_idle
from games.table import flow
from games.table import seats as services
from games.table.loading import game_load

from .runner_marks import RUNNER_TEST_MARKS

pytestmark = RUNNER_TEST_MARKS

db = database_sync_to_async


def person_plays_first_card(game_id: int, user) -> int:
    """Play the person's first card when it is their turn; return the game's moves."""
    loaded = game_load(Game.objects.get(pk=game_id))
    state = loaded.state
    seat = loaded.seats[state.to_play]
    if seat.user_id == user.pk:
        card = CARD_CODES[state.hands[seat.number][0]]
        flow.play_card(game_id=game_id, user=user, card=card)
    return Game.objects.get(pk=game_id).moves


async def test_tables_move_while_a_long_background_job_runs(alice, settings, table_runner):
    settings.COINS_BOT_PAUSE = 0.05  # the bots are the runner's to play
    busy, release = threading.Event(), threading.Event()

    def long_job(sender, **kwargs):
        busy.set()
        release.wait(timeout=20)  # a recompute of years of games

    runner_idle.connect(long_job, dispatch_uid="test.long_job")
    try:
        await asyncio.to_thread(busy.wait, 10)
        assert busy.is_set(), "the runner's background work never began"
        game = await db(services.game_create)(
            creator=alice, target=10, seat_kinds=["me", "random", "random"]
        )
        moves = 0
        for _ in range(100):  # the bots answer while the job still runs
            moves = await db(person_plays_first_card)(game.pk, alice)
            if moves >= 9:
                break
            await asyncio.sleep(0.05)
        assert moves >= 9 and not release.is_set()
    finally:
        release.set()
        runner_idle.disconnect(dispatch_uid="test.long_job")
