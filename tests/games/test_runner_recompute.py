"""A recompute served by a table runner, held at a chunk boundary for as long as the test
likes: a game that ends meanwhile has its aftermath served, and the bots at another table
keep playing."""

import asyncio
import threading

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from games.table import flow
from games.table import seats as services
from ratings import recompute
from ratings.models import RatingEvent, RatingsRecompute
from ratings.queue import queued_rate
from ratings.recompute import chunk_committed
from tests.games.runner_marks import RUNNER_TEST_MARKS
from tests.games.test_runner_background import person_plays_first_card
from tests.ratings.test_ratings import finish

pytestmark = RUNNER_TEST_MARKS

db = database_sync_to_async


async def until(check, tries: int = 400) -> bool:
    """Whether ``check()`` (run in a database thread) came true within ``tries`` looks."""
    for _ in range(tries):
        if await db(check)():
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.mark.usefixtures("table_runner")
async def test_a_game_ends_and_another_table_plays_on_during_a_long_recompute(
    django_user_model, settings, monkeypatch
):
    monkeypatch.setattr(recompute, "CHUNK", 1)
    alice = await db(django_user_model.objects.create_user)("al")
    for _ in range(2):  # two games of history: two chunks
        await db(finish)(alice, ["me", "random", "random"])
    settings.COINS_BOT_PAUSE = 0.05  # from here the bots are the runner's to play
    ending = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "careful"]
    )
    busy, release = threading.Event(), threading.Event()

    def hold(sender, request, **kwargs):
        busy.set()
        release.wait(timeout=60)  # a recompute of years of games

    chunk_committed.connect(hold, weak=False, dispatch_uid="test.hold")
    try:
        await db(RatingsRecompute.objects.create)()
        assert await asyncio.to_thread(busy.wait, 30), "the runner never began the recompute"

        await db(flow.resign)(game_id=ending.pk, user=alice)  # the game ends: its aftermath
        assert await until(lambda: Game.objects.get(pk=ending.pk).due_at is None)

        other = await db(services.game_create)(
            creator=alice, target=10, seat_kinds=["me", "random", "random"]
        )
        moves = 0
        for _ in range(200):  # the bots answer while the recompute is still held
            moves = await db(person_plays_first_card)(other.pk, alice)
            if moves >= 9:
                break
            await asyncio.sleep(0.05)
        assert moves >= 9 and not release.is_set()
        assert await db(RatingsRecompute.objects.filter(finished_at=None).count)() == 1
    finally:
        release.set()
        chunk_committed.disconnect(dispatch_uid="test.hold")
    assert await until(lambda: not RatingsRecompute.objects.filter(finished_at=None).exists())
    await db(queued_rate)()  # the lane's part: the game that ended is rated
    assert await db(RatingEvent.objects.filter(game_id=ending.pk).count)() == 3
