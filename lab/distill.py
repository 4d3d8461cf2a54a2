"""Fitting the distilled policy (`games/engine/bots/policies/distilled.py`) to the search
bots' own choices.

``manage.py distill`` plays games of ``expert-v3`` against two ``expert-v1`` (rotated seats,
seeded), keeps every choice of every seat that held more than one card, and fits one
conditional logit per trick position: a card's chance to be chosen from the hand is
proportional to ``exp(score)``, the score linear in the card's own weight and the features of
`distilled.py`. The fitted weights, rounded to 4 places, are written to
``games/engine/bots/data/distilled_weights.py``; the same seed and games write the same
file.

The fit needs numpy (a development dependency); the site only reads the weights.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from games.engine.bots import BOTS, Budget, make_bot
from games.engine.bots.data import distilled_weights as committed
from games.engine.bots.data import race_table
from games.engine.bots.policies.distilled import (
    lead_features,
    reach_features,
    second_features,
    third_features,
)
from games.engine.state import GameState

from .fingerprint import fingerprint as fingerprint_of

GAMES = 300
SEED = "distill-1"
LINEUP = ("expert-v3", "expert-v1", "expert-v1")
ITERATIONS = 600  # Adam steps of the fit
STEP = 0.05
L2 = 1e-4
WEIGHTS_PATH = Path(committed.__file__)  # where ``manage.py distill`` writes by default
SAMPLE_GAMES = 3  # the fingerprint's sample: one game per seat of expert-v3 ...
SAMPLE_BUDGET = Budget(iterations=4)  # ... at a small budget that never reads the clock


@dataclass(frozen=True)
class Choice:
    """One card chosen by a search bot, with what it saw: the candidates are its hand."""

    hand: tuple[int, ...]
    trick: tuple[int, ...]
    leader: int
    seat: int
    scores: tuple[int, ...]
    target: int
    card: int


def own_iterations(name: str) -> Budget:
    """Bot ``name``'s own number of deals, without its clock cap."""
    return Budget(iterations=BOTS[name].budget.iterations)


def play_for_choices(
    number: int, seed: str = SEED, target: int = 10, budget: Budget | None = None
) -> list[Choice]:
    """Game ``number``: its deal is shared by three games, one per seat of ``expert-v3``.
    The bots think their own number of deals, never cut short by the clock (so a busy
    machine writes the same file), unless ``budget`` is given."""
    turn = number % 3
    seating = LINEUP[-turn:] + LINEUP[:-turn]  # turn 0: LINEUP[0:] + LINEUP[:0]
    state = GameState(target, seed=f"{seed}/deal/{number // 3}")
    bots = [
        make_bot(name, seed=f"{seed}/{number}/{seat}", budget=budget or own_iterations(name))
        for seat, name in enumerate(seating)
    ]
    choices = []
    while state.winner is None:
        seat = state.to_play
        view = state.view_for(seat)
        card = bots[seat].choose(view)
        if len(view.legal_cards) > 1:
            choices.append(
                Choice(view.hand, view.trick, view.leader, seat, view.scores, target, card)
            )
        state.play(seat, card)
    return choices


def collect(games: int = GAMES, seed: str = SEED, processes: int | None = None) -> list[Choice]:
    """Every choice of ``games`` games, in game order (the same for any process count)."""
    numbers = [(n, seed) for n in range(games)]
    if processes == 1:
        batches = [play_for_choices(n, s) for n, s in numbers]
    else:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            batches = pool.starmap(play_for_choices, numbers)
    return [choice for batch in batches for choice in batch]


def features(choice: Choice, card: int) -> list[float]:
    """The card's one-hot weight slot (48) and its features at the choice's position."""
    one_hot = [0.0] * 48
    one_hot[card] = 1.0
    trick = choice.trick
    if not trick:
        return one_hot + lead_features(card)
    if len(trick) == 1:
        return one_hot + second_features(trick[0], card)
    first, second = trick
    return (
        one_hot
        + third_features(first, second, card)
        + reach_features(
            first, second, card, choice.leader, choice.seat, choice.scores, choice.target
        )
    )


def fit_position(choices: list[Choice]) -> tuple[list[float], float]:
    """The conditional logit's weights for these choices (one trick position), and the share
    of choices whose best-scored card is the one chosen."""
    import numpy as np

    width = max(len(c.hand) for c in choices)
    size = len(features(choices[0], choices[0].hand[0]))
    x = np.zeros((len(choices), width, size))
    valid = np.zeros((len(choices), width), dtype=bool)
    chosen = np.zeros(len(choices), dtype=int)
    for i, choice in enumerate(choices):
        for j, card in enumerate(choice.hand):
            x[i, j] = features(choice, card)
            valid[i, j] = True
            if card == choice.card:
                chosen[i] = j
    weights = np.zeros(size)
    first = np.zeros(size)
    second = np.zeros(size)
    rows = np.arange(len(choices))
    for step in range(1, ITERATIONS + 1):
        scores = np.where(valid, x @ weights, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        chance = np.exp(scores)
        chance /= chance.sum(axis=1, keepdims=True)
        chance[rows, chosen] -= 1.0
        gradient = np.einsum("nm,nmf->f", chance, x) / len(choices) + L2 * weights
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        weights -= STEP * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    best = np.where(valid, x @ weights, -np.inf).argmax(axis=1)
    return [round(float(w), 4) for w in weights], float((best == chosen).mean())


def fit(choices: list[Choice]) -> dict:
    """The weights of each trick position, and how often each names the chosen card."""
    result = {}
    for name, position in (("LEAD", 0), ("SECOND", 1), ("THIRD", 2)):
        weights, hits = fit_position([c for c in choices if len(c.trick) == position])
        result[name] = (weights, hits)
    return result


def fingerprint(games: int = GAMES, seed: str = SEED) -> str:
    """The fingerprint of the weights these settings fit: this generator's source, its
    settings (the lineup's own budgets among them), the race table expert-v3 reads, and the
    choices and features of a few short games at a small budget (how the lineup plays, what
    the features say of it)."""
    settings = {
        "games": games,
        "seed": seed,
        "lineup": LINEUP,
        "budgets": [BOTS[name].budget for name in LINEUP],
        "fit": [ITERATIONS, STEP, L2],
        "race_table": hashlib.sha256(repr(race_table.CHANCES).encode()).hexdigest(),
    }
    sample = []
    for number in range(SAMPLE_GAMES):
        for choice in play_for_choices(number, "fingerprint", budget=SAMPLE_BUDGET):
            sample.append((choice, [features(choice, card) for card in choice.hand]))
    return fingerprint_of("distilled-weights", sys.modules[__name__], settings, sample)


def render_module(fitted: dict, games: int, seed: str, choices: int) -> str:
    """The source of ``distilled_weights.py``."""
    lines = [
        '"""Generated by ``manage.py distill`` (`lab/distill.py`): do not edit."""',
        "",
        "# of the generator, its settings and a sample of its inputs (lab/fingerprint.py)",
        f"FINGERPRINT = {fingerprint(games, seed)!r}",
        f"GAMES = {games}",
        f"SEED = {seed!r}",
        f"CHOICES = {choices}",
        "# Per trick position: 48 weights of the card itself, then one per feature of",
        "# distilled.py's lead_features, second_features or third_features; THIRD ends with",
        "# the two of reach_features (kept apart as REACH).",
    ]
    for name in ("LEAD", "SECOND", "THIRD"):
        weights, hits = fitted[name]
        if name == "THIRD":
            weights, reach = weights[:-2], weights[-2:]
        body = textwrap.wrap(", ".join(f"{w:.4f}" for w in weights), 92)
        lines += [
            f"# names the chosen card in {hits:.1%} of the choices",
            f"{name} = (",
            *(f"    {line}" for line in body),
            ")",
        ]
    lines.append(f"REACH = ({reach[0]:.4f}, {reach[1]:.4f})")
    return "\n".join(lines) + "\n"
