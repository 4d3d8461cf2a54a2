"""The hard level: Perfect Information Monte Carlo search with opponent models.

The bot knows its hand and every card played, so the cards it has not seen lie in the other
two hands, in sizes it also knows. Each iteration deals those cards at random to the two
other seats (a *determinization*), draws a policy for each opponent from the opponent models
of `playouts.py`, and for every card it could play, plays that card and plays the hand out.
The card with the best total is played.

Outcomes are judged by what wins this game: a play-out in which the bot reaches the target
is worth +1, one in which an opponent does is worth -1, and one that ends the hand with
nobody at the target is worth less, by how far ahead of the leading opponent the bot is.

The iteration budget (determinizations) makes a bot reproducible for a seed; the wall-clock
cap is a safety net sized so that it never decides on our machines (see the README's
think-time figures, measured through the site's own path).
"""

from __future__ import annotations

import time

from ..views import SeatView
from .base import Bot, Budget, require_turn
from .lookahead import hand_value
from .playouts import CAREFUL, LOOKAHEAD, card_worth, model_card, unseen_cards_and_sizes

MISS = 0.3  # how much less likely a deal is per card a model would not have played from it


def opponent_plays(view: SeatView) -> dict[int, list[tuple]]:
    """Each opponent's cards this hand, latest first, with what it saw when it chose them:
    ``(card, cards before it in the trick, the trick's leader, scores before the trick)``."""
    scores = list(view.scores)
    for trick in view.tricks:
        scores[trick.winner] -= trick.points
    plays: dict[int, list[tuple]] = {(view.seat + 1) % 3: [], (view.seat + 2) % 3: []}
    tricks = [(t.leader, t.cards, t.winner, t.points) for t in view.tricks]
    for leader, cards, winner, points in [*tricks, (view.leader, view.trick, None, 0)]:
        before = tuple(scores)
        for position, card in enumerate(cards):
            seat = (leader + position) % 3
            if seat in plays:
                plays[seat].append((card, tuple(cards[:position]), leader, before))
        if winner is not None:
            scores[winner] += points
    for seat_plays in plays.values():
        seat_plays.reverse()
    return plays


def model_likelihoods(seat: int, hand, plays, target: int, models=(CAREFUL, LOOKAHEAD)):
    """How well each opponent model of ``models`` explains ``seat``'s plays this hand if it
    holds ``hand`` now: 1 for a model that would have played every card, times ``MISS`` for
    each card it would not have."""
    held = list(hand)
    likelihood = [1.0] * len(models)
    for card, before, leader, scores in plays:  # latest first: each card goes back in hand
        held.append(card)
        for k, model in enumerate(models):
            if model_card(model, held, before, leader, seat, scores, target) != card:
                likelihood[k] *= MISS
    return likelihood


def model_weights(seat: int, hand, plays, target: int, priors) -> list[float]:
    """How likely ``seat`` holds ``hand`` and plays like each model of ``priors`` (pairs of a
    model and its prior share): their sum weighs a deal, their ratio draws the model that
    plays the seat out."""
    models = tuple(model for model, _ in priors)
    likelihood = model_likelihoods(seat, hand, plays, target, models)
    return [chance * share for chance, (_, share) in zip(likelihood, priors, strict=True)]


def draw_model(priors, weights, draw: float) -> int:
    """The model whose turn ``draw`` (uniform in [0, 1)) falls in, by ``weights``: the last
    model first, so that two models draw as expert-v2 always has."""
    point = draw * sum(weights)
    for (model, _), weight in zip(reversed(priors), reversed(weights), strict=True):
        if point < weight:
            return model
        point -= weight
    return priors[0][0]


class ExpertBot(Bot):
    name = "expert-v2"
    label = "Expert v2"
    searches = True
    budget = Budget(iterations=100, seconds=0.5)
    # the opponent models and their prior shares, before the plays are seen
    opponent_models = ((CAREFUL, 0.5), (LOOKAHEAD, 0.5))
    own_model = CAREFUL  # the bot's own later cards in a play-out
    hand_end = staticmethod(hand_value)  # how a play-out judges a hand nobody won the game in

    def choose(self, view: SeatView, budget: Budget | None = None) -> int:
        hand = require_turn(view)
        if len(hand) == 1:
            return hand[0]
        budget = budget or self.budget
        iterations = budget.iterations or self.budget.iterations
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        totals = self.evaluate(view, iterations, deadline)
        return max(hand, key=lambda card: totals[card])

    def evaluate(self, view: SeatView, iterations: int, deadline: float | None = None) -> dict:
        """Return the summed play-out worth of each legal card over the determinizations."""
        me, target = view.seat, view.target
        hand = list(view.legal_cards)
        left, right = (me + 1) % 3, (me + 2) % 3
        unseen, n_left, n_right = unseen_cards_and_sizes(view)
        totals = dict.fromkeys(hand, 0.0)
        rng = self.rng
        priors = self.opponent_models
        clock = time.perf_counter
        models = [self.own_model] * 3
        plays = opponent_plays(view)
        hand_end = self.hand_end
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
                weights = model_weights(seat, cards, plays[seat], target, priors)
                weight *= sum(weights)
                models[seat] = draw_model(priors, weights, rng.random())
            for card in hand:
                worth = card_worth(view, hand, card, left_cards, right_cards, models, hand_end)
                totals[card] += weight * worth
        return totals
