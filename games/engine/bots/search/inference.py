"""Inference: what the opponents' plays this hand say about the cards they hold and the way
they play.

Each deal of the unseen cards is weighed by how well the opponent models (play-out
policies, each with a prior share) explain every card each opponent has played this hand
if it held that deal's cards; the same weights draw the model that plays the opponent out.
"""

from __future__ import annotations

from ...views import SeatView

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


def model_likelihoods(seat: int, hand, plays, target: int, models) -> list[float]:
    """How well each play-out policy of ``models`` explains ``seat``'s plays this hand if it
    holds ``hand`` now: 1 for a model that would have played every card, times ``MISS`` for
    each card it would not have."""
    held = list(hand)
    likelihood = [1.0] * len(models)
    for card, before, leader, scores in plays:  # latest first: each card goes back in hand
        held.append(card)
        for k, model in enumerate(models):
            if model.card(held, before, leader, seat, scores, target) != card:
                likelihood[k] *= MISS
    return likelihood


def model_weights(seat: int, hand, plays, target: int, priors) -> list[float]:
    """How likely ``seat`` holds ``hand`` and plays like each model of ``priors`` (pairs of a
    model and its prior share): their sum weighs a deal, their ratio draws the model that
    plays the seat out."""
    models = tuple(model for model, _ in priors)
    likelihood = model_likelihoods(seat, hand, plays, target, models)
    return [chance * share for chance, (_, share) in zip(likelihood, priors, strict=True)]


def draw_model(priors, weights, draw: float):
    """The model whose turn ``draw`` (uniform in [0, 1)) falls in, by ``weights``: the last
    model first, so that two models draw as expert-v2 always has."""
    point = draw * sum(weights)
    for (model, _), weight in zip(reversed(priors), reversed(weights), strict=True):
        if point < weight:
            return model
        point -= weight
    return priors[0][0]
