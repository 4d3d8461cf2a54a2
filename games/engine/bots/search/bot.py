"""Determinized search (Perfect Information Monte Carlo) with play-outs and inference: the
one search bot, configured by `SearchSettings` (the experts are configurations of it, see
`experts.py`).

The bot knows its hand and every card played, so the cards it has not seen lie in the other
two hands, in sizes it also knows. Each iteration deals those cards at random to the two
other seats (a *determinization*), gives each opponent a play-out policy drawn from its
models (weighted by inference, if on), and for every card it could play, plays that card and
plays the hand out. The card with the best total is played. A play-out in which the bot
reaches the target is worth +1, one in which an opponent does -1, and one that ends the hand
with nobody at the target is judged by the lead or by the race to the target. With few cards
left (``exact_cards``) it instead solves every deal exactly (max-n, `endgame.py`).

The iteration budget makes a bot reproducible for a seed; the wall-clock cap is a safety
net, never read when the budget has none (``Budget(iterations=N)``).
"""

from __future__ import annotations

from itertools import combinations
from time import perf_counter as clock

from ...views import SeatView
from ..base import Bot, Budget, require_turn
from .endgame import card_values
from .inference import draw_model, model_weights, opponent_plays
from .playouts import card_worth, unseen_cards_and_sizes
from .settings import SearchSettings


class SearchBot(Bot):
    """A search bot playing by ``settings``; ``budget`` replaces the settings' own."""

    searches = True

    def __init__(
        self, settings: SearchSettings, seed: int | str | None = None, budget: Budget | None = None
    ):
        super().__init__(seed, budget or settings.budget)
        self.settings = settings
        self.name = settings.name
        self.priors = settings.priors  # the opponent models, each with its prior share
        self.own_policy = settings.own_policy

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        if len(hand) == 1:
            return hand[0]
        budget = budget or self.budget
        iterations = budget.iterations or self.budget.iterations or self.settings.budget.iterations
        deadline = None if budget.seconds is None else clock() + budget.seconds
        totals = self.evaluate(view, iterations, deadline)
        return max(hand, key=lambda card: totals[card])

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """The summed worth of each legal card: exact once few cards are left, else over
        ``iterations`` sampled deals (fewer if the clock passes ``deadline``)."""
        if self.exact(view):
            return self.evaluate_exactly(view)
        return self.evaluate_sampled(view, iterations, deadline)

    def exact(self, view: SeatView) -> bool:
        """Whether the bot searches this position exactly: few cards are left."""
        return len(view.hand) <= self.settings.exact_cards

    def evaluate_sampled(
        self, view: SeatView, iterations: int, deadline: float | None = None
    ) -> dict:
        """The summed play-out worth of each legal card over the determinizations."""
        return self.sampled_totals(view, iterations, deadline)[0]

    def chances(self, view: SeatView, iterations: int) -> dict[int, float]:
        """Each legal card's chance (0..1) to win the game for the seat to play, as this bot
        estimates it from ``view`` alone: its mean worth, exact or over ``iterations`` deals
        (the same deals for every card, so differences between cards are sharp)."""
        if self.exact(view):
            totals, weight = self.exact_totals(view)
            scale = (lambda total: total / weight) if weight else (lambda total: 0.5)
        else:
            totals, weight = self.sampled_totals(view, iterations)
            scale = (lambda total: (total / weight + 1) / 2) if weight else (lambda total: 0.5)
        return {card: min(1.0, max(0.0, scale(total))) for card, total in totals.items()}

    def sampled_totals(
        self, view: SeatView, iterations: int, deadline: float | None = None
    ) -> tuple[dict, float]:
        """The summed play-out worth of each legal card over the determinizations, and the
        summed weight of those deals."""
        me, target = view.seat, view.target
        hand = list(view.legal_cards)
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        totals = dict.fromkeys(hand, 0.0)
        rng = self.rng
        settings = self.settings
        priors = self.priors
        shares = [share for _, share in priors]
        drawn = len(priors) > 1  # a single model is never drawn (no draw from the rng)
        models = [self.own_policy] * 3
        plays = opponent_plays(view) if settings.inference else None
        hand_end = settings.hand_end
        weight_sum = 0.0
        for done in range(iterations):
            if deadline is not None and done and clock() > deadline:
                break
            rng.shuffle(unseen)
            left_cards = unseen[:n_left]
            right_cards = unseen[n_left : n_left + n_right]
            # Inference: a deal counts by how well it explains the opponents' plays, and
            # each opponent is played out by a model drawn by how well it explains them.
            weight = 1.0
            for seat, cards in ((left, left_cards), (right, right_cards)):
                weights = shares
                if plays is not None:
                    weights = model_weights(seat, cards, plays[seat], target, priors)
                    weight *= sum(weights)
                models[seat] = draw_model(priors, weights, rng.random()) if drawn else priors[0][0]
            weight_sum += weight
            for card in hand:
                worth = card_worth(view, hand, card, left_cards, right_cards, models, hand_end)
                totals[card] += weight * worth
        return totals, weight_sum

    def evaluate_exactly(self, view: SeatView) -> dict:
        """Every deal of the unseen cards, each weighted by how well the opponent models
        explain the opponents' plays this hand (if inference is on); in each, the exact
        (max-n) chance to win the game after each card. Return the weighted sums."""
        return self.exact_totals(view)[0]

    def exact_totals(self, view: SeatView) -> tuple[dict, float]:
        """``evaluate_exactly``'s sums, and the summed weight of the deals."""
        me, target = view.seat, view.target
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        hand = list(view.legal_cards)
        totals = dict.fromkeys(hand, 0.0)
        priors = self.priors
        plays = opponent_plays(view) if self.settings.inference else None
        weight_sum = 0.0
        for chosen in combinations(unseen, n_left):
            left_cards = list(chosen)
            right_cards = [card for card in unseen if card not in chosen][:n_right]
            weight = 1.0
            if plays is not None:
                for seat, cards in ((left, left_cards), (right, right_cards)):
                    weight *= sum(model_weights(seat, cards, plays[seat], target, priors))
            hands = [None, None, None]
            hands[me], hands[left], hands[right] = hand, left_cards, right_cards
            values = card_values(hands, view.trick, view.leader, view.scores, target, me)
            weight_sum += weight
            for card, value in values.items():
                totals[card] += weight * value
        return totals, weight_sum
