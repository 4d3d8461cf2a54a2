"""CardTurns (``games/realtime/loop_card.py``): the cards on one event loop take turns, a
turn is always given back, and one not given within the wait is taken anyway."""

import asyncio

import pytest

from games.realtime.loop_card import CardTurns

pytestmark = pytest.mark.asyncio


async def test_with_one_at_once_a_card_starts_only_when_the_one_before_is_done():
    turns, steps = CardTurns(1, wait=60), []
    first_may_finish = asyncio.Event()

    async def card(name: str, until: asyncio.Event | None = None):
        async with turns.turn():
            steps.append(f"{name} starts")
            if until is not None:
                await until.wait()
            await asyncio.sleep(0)  # a statement's round trip
            steps.append(f"{name} done")

    first = asyncio.create_task(card("first", first_may_finish))
    await asyncio.sleep(0)
    later = [asyncio.create_task(card(name)) for name in ("second", "third")]
    while turns.waiting < 2:
        await asyncio.sleep(0)
    assert steps == ["first starts"]
    first_may_finish.set()
    await asyncio.gather(first, *later)
    assert steps == [
        "first starts", "first done", "second starts", "second done", "third starts", "third done"
    ]
    assert turns.waiting == 0 and not turns.slots.locked()


async def most_at_once(turns: CardTurns, cards: int) -> int:
    """The most of ``cards`` cards, all arriving at once, inside their turns together."""
    inside = most = 0

    async def card():
        nonlocal inside, most
        async with turns.turn():
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0)  # a statement's round trip
            inside -= 1

    await asyncio.gather(*(card() for _ in range(cards)))
    return most


async def test_two_at_once_overlap_but_a_third_waits():
    assert await most_at_once(CardTurns(2, wait=60), 6) == 2


async def test_a_turn_is_given_back_when_its_card_fails_or_is_cancelled():
    turns = CardTurns(1, wait=60)
    with pytest.raises(ValueError):
        async with turns.turn():
            raise ValueError("a card refused")
    stuck = asyncio.Event()

    async def held_for_ever():
        async with turns.turn():
            await stuck.wait()

    task = asyncio.create_task(held_for_ever())
    while not turns.slots.locked():
        await asyncio.sleep(0)
    task.cancel()  # the server stopping, say
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not turns.slots.locked()


async def test_a_turn_not_given_within_the_wait_is_taken_anyway():
    """A card holding its turn for ever (a statement stuck on PostgreSQL) holds no other
    card back longer than the wait; the turn it took without waiting is not given back."""
    turns = CardTurns(1, wait=0.01)
    await turns.slots.acquire()  # held by a stuck card
    entered = False
    async with turns.turn():
        entered = True
    assert entered and turns.waiting == 0
    assert turns.slots.locked()  # still the stuck card's, not released twice


async def test_with_no_turns_every_card_goes_at_once():
    turns = CardTurns(0, wait=60)
    assert await most_at_once(turns, 5) == 5 and turns.slots is None


async def test_a_turn_given_back_early_is_given_back_once():
    """A card whose statement is slow gives its turn back before its end: the next card
    has it at once, and the first card's end does not free a second slot."""
    turns = CardTurns(1, wait=60)
    async with turns.turn() as turn:
        turn.give_back()
        async with turns.turn():  # the next card, at once
            assert turns.slots.locked()
        turn.give_back()
    assert not turns.slots.locked()
    async with turns.turn():
        assert turns.slots.locked()  # one slot still, not two
