"""The first expert, frozen as ``expert-v1``: the ladder's fixed reference and the bot that
played every game recorded as ``expert`` before the levels were calibrated.

Perfect Information Monte Carlo search over its own view.

The bot knows its hand and every card played, so the cards it has not seen lie in the other
two hands, in sizes it also knows. Each iteration deals those unseen cards at random to the
two other seats (a *determinization*), then, for every card it could play, plays that card
and rolls the rest of the hand out with a fast rule-based policy on plain int lists. The
card with the best average outcome is played.

Outcomes are judged by what wins this game: a rollout in which the bot reaches the target
is worth +1 and one in which an opponent does is worth -1; a rollout that ends the hand with
nobody at the target is worth less, by how far ahead of the leading opponent the bot is.

The rollout policy, used for every seat, looks one trick ahead like the heuristic bot:

* leading or second to play, a card is judged by the average outcome of the trick against
  every answer from the rest of the deck (tables computed once at import);
* last to play, the trick is known: win Coins cheaply, never give Coins away, shed low cards,
  and a trick that reaches the target counts for far more than its points.

It reads only the `SeatView` it is handed; the iteration budget (determinizations) makes it
reproducible for a seed, and a wall-clock cap keeps it responsive.
"""

from __future__ import annotations

import time

from ..views import SeatView
from .base import Bot, Budget, require_turn
from .lookahead import hand_value
from .playouts import LOOKAHEAD, card_worth, playout, unseen_cards_and_sizes

# 40 determinizations: about 7 ms at p50 and 30 ms at p95 on one core, so the clock cap is a
# safety net that should never decide (a game between bots then replays exactly).
DEFAULT_BUDGET = Budget(iterations=40, seconds=0.24)

WIN, LOSS = 1.0, -1.0  # rollout outcomes when someone reaches the target


def rollout(hands, trick, leader, scores, target, me) -> float:
    """Play the hand out from this position with the look-ahead policy for every seat;
    return its worth to ``me``. ``hands``, ``trick`` and ``scores`` are consumed."""
    return playout(hands, trick, leader, scores, target, me, ALL_LOOKAHEAD, hand_value)


ALL_LOOKAHEAD = (LOOKAHEAD, LOOKAHEAD, LOOKAHEAD)


class ExpertV1Bot(Bot):
    name = "expert-v1"
    label = "Expert v1"
    searches = True
    budget = DEFAULT_BUDGET

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        if len(hand) == 1:
            return hand[0]
        budget = budget or DEFAULT_BUDGET
        iterations = budget.iterations
        if iterations is None:
            iterations = DEFAULT_BUDGET.iterations if budget.seconds is None else 10**9
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        totals = self.evaluate(view, iterations, deadline)
        return max(hand, key=lambda card: totals[card])

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """Return the summed rollout worth of each legal card over the determinizations."""
        hand = list(view.legal_cards)
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        totals = dict.fromkeys(hand, 0.0)
        shuffle = self.rng.shuffle
        clock = time.perf_counter
        for done in range(iterations):
            if deadline is not None and done and clock() > deadline:
                break
            shuffle(unseen)
            left_cards = unseen[:n_left]
            right_cards = unseen[n_left : n_left + n_right]
            for card in hand:
                totals[card] += card_worth(
                    view, hand, card, left_cards, right_cards, ALL_LOOKAHEAD, hand_value
                )
        return totals
