"""An honest single-dummy review of a finished game: for every card, what the hard bot thinks
of each card the seat could have played, knowing only what that seat knew.

Each card is judged from ``GameState.view_for(seat)`` at that moment (the seat's hand, the
cards played, the scores: never the other hands), by the hard bot's search (``chances``),
seeded from the game and the move, so an analysis is the same every time it is run. A card's
*loss* is the best card's win chance minus the played card's (in win-chance points, 0..1);
its label follows ``THRESHOLDS``. Accuracy per seat is lichess's formula on those losses, and
luck per hand and seat compares the seat's chance with the cards it was dealt (before anyone
played) with its chance before the deal. See docs/analysis.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from statistics import fmean

from .bots.experts import EXPERT_V4
from .bots.search import SearchBot
from .bots.search.playouts import playout
from .bots.values.race import race_chances, race_value
from .cards import CARD_CODES, DECK
from .state import GameState

FORMAT = "coins-analysis/1"
ANALYST = EXPERT_V4  # the hard level's bot
ITERATIONS = 300  # deals per card (three times the hard bot's own budget: less noise)
LUCK_DEALS = 200  # play-outs per seat for a hand's luck
THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))  # loss at least


def label_of(loss: float) -> str:
    """good, inaccuracy, mistake or blunder, by the win chance a card gave away."""
    for label, threshold in THRESHOLDS:
        if loss >= threshold:
            return label
    return "good"


def card_accuracy(loss: float) -> float:
    """lichess's accuracy of one move (0..100) from the win-chance points it lost."""
    value = 103.1668 * math.exp(-0.04354 * (100.0 * loss)) - 3.1669
    return max(0.0, min(100.0, value))


def seat_accuracy(losses: list[float]) -> float | None:
    """A seat's accuracy over its cards that were a choice (None without any)."""
    return round(fmean(card_accuracy(loss) for loss in losses), 1) if losses else None


def card_chances(view, seed: str, iterations: int = ITERATIONS) -> dict[int, float]:
    """Each card ``view``'s seat may play, with its chance to win the game (0..1)."""
    return SearchBot(ANALYST, seed=seed).chances(view, iterations)


def hand_start_chance(state: GameState, seat: int, seed: str, deals: int = LUCK_DEALS) -> float:
    """``seat``'s chance to win the game from its own cards at the start of a hand (the
    other cards dealt at random, every seat played out by the distilled policy)."""
    rng = random.Random(seed)
    mine = list(state.hands[seat])
    unseen = [card for card in DECK if card not in mine]
    left, right = (seat + 1) % 3, (seat + 2) % 3
    n_left = len(state.hands[left])
    models = [ANALYST.own_policy] * 3
    total = 0.0
    for _ in range(deals):
        rng.shuffle(unseen)
        hands = [None, None, None]
        hands[seat], hands[left], hands[right] = list(mine), unseen[:n_left], unseen[n_left:]
        scores = list(state.scores)
        total += playout(hands, [], state.leader, scores, state.target, seat, models, race_value)
    return (total / deals + 1) / 2


def hand_luck(state: GameState, seed: str, deals: int = LUCK_DEALS) -> list[float]:
    """Each seat's luck in the hand ``state`` is about to play: its chance with these cards
    minus its chance before the deal (the race to the target from the scores and the lead)."""
    before = race_chances(state.scores, state.leader, state.target)
    return [
        round(hand_start_chance(state, seat, f"{seed}:luck:{seat}", deals) - before[seat], 3)
        for seat in range(3)
    ]


def analyse(
    state: GameState,
    moves: list[tuple[int, int]],
    seed: str,
    iterations: int = ITERATIONS,
    luck_deals: int = LUCK_DEALS,
    before_each: Callable[[], None] | None = None,
) -> dict:
    """Analyse ``moves`` (seat, card) played from the fresh ``state`` (the game's decks,
    nothing played): the ``plays``, ``accuracy`` and ``luck`` of a coins-analysis/1
    document. ``state`` is played forward. ``before_each`` is called before each card's
    analysis (a worker waits there while its server is busy)."""
    plays, luck, losses = [], [], {0: [], 1: [], 2: []}
    for index, (seat, card) in enumerate(moves):
        if before_each is not None:
            before_each()
        if not state.trick and state.trick_number == 1:
            hand_seed = f"{seed}:hand:{state.hand_number}"
            luck.append(
                {"hand": state.hand_number, "seats": hand_luck(state, hand_seed, luck_deals)}
            )
        view = state.view_for(seat)
        values = {
            option: round(chance, 4)
            for option, chance in card_chances(view, f"{seed}:{index}", iterations).items()
        }
        best = max(values, key=lambda option: (values[option], -option))
        loss = round(values[best] - values[card], 4)
        if len(values) > 1:
            losses[seat].append(loss)
        plays.append(
            {
                "hand": state.hand_number,
                "trick": state.trick_number,
                "seat": seat,
                "card": CARD_CODES[card],
                "best": CARD_CODES[best],
                "values": {CARD_CODES[option]: values[option] for option in sorted(values)},
                "loss": loss,
                "label": label_of(loss) if len(values) > 1 else "good",
            }
        )
        state.play(seat, card)
    return {
        "plays": plays,
        "accuracy": [seat_accuracy(losses[seat]) for seat in range(3)],
        "luck": luck,
    }
