"""The table runner sleeps until the next game is due: this process wakes it for a game it
schedules sooner (a bot's card after its pause), and it still looks every
``COINS_RUNNER_POLL`` seconds for games another process scheduled."""

import asyncio

from channels.db import database_sync_to_async
from django.utils import timezone

from games.models import Game
from games.table import seats as services

from .runner_marks import RUNNER_TEST_MARKS
from .test_runner_background import person_plays_first_card

pytestmark = RUNNER_TEST_MARKS

db = database_sync_to_async


async def moves_reach(game_id: int, user, moves: int, within: float) -> int:
    """Play the person's cards as their turn comes until the game has ``moves`` cards (or
    ``within`` seconds pass); return the moves reached."""
    reached = 0
    for _ in range(int(within / 0.05)):
        reached = await db(person_plays_first_card)(game_id, user)
        if reached >= moves:
            break
        await asyncio.sleep(0.05)
    return reached


async def test_a_bot_s_card_scheduled_here_wakes_the_sleeping_runner(alice, settings, table_runner):
    settings.COINS_RUNNER_POLL = 60  # it would look again only in a minute
    settings.COINS_BOT_PAUSE = 0.05
    settings.COINS_TRICK_PAUSE = 0
    await asyncio.sleep(0.2)  # the runner has looked, found nothing due, and sleeps
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["me", "random", "random"]
    )
    assert await moves_reach(game.pk, alice, 9, within=20) >= 9  # bots answered at once


async def test_a_game_another_process_made_due_is_served_within_the_poll(
    alice, settings, table_runner
):
    settings.COINS_RUNNER_POLL = 0.3
    settings.COINS_BOT_PAUSE = 3600  # the bots' cards are due in an hour
    game = await db(services.game_create)(
        creator=alice, target=10, seat_kinds=["random", "random", "me"]
    )
    moves = await db(person_plays_first_card)(game.pk, alice)  # if they lead: a bot is next
    await asyncio.sleep(0.5)  # the runner sleeps until the hour is up, or the poll
    # Made due now by a bare update, as another process would: no wake-up here.
    await db(Game.objects.filter(pk=game.pk).update)(due_at=timezone.now())
    for _ in range(200):
        if (await db(Game.objects.get)(pk=game.pk)).moves > moves:
            break
        await asyncio.sleep(0.05)
    assert (await db(Game.objects.get)(pk=game.pk)).moves > moves
