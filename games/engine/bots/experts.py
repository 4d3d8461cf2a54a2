"""The experts: each a configuration of the one search bot (`search/`), newest last.

Each names what it changed from the one before; the names stay because games and ratings
record the bot that played (`levels.py` says which one the hard level plays).
"""

from __future__ import annotations

from dataclasses import replace

from .base import Budget
from .search import SearchSettings

# The first expert, frozen: the ladder's fixed reference and the bot of every game recorded
# as ``expert`` before the levels were calibrated. Every seat plays out by the look-ahead
# policy, no inference. 40 deals: about 7 ms at p50 and 30 ms at p95 on one core, so the
# clock cap is a safety net that should never decide.
EXPERT_V1 = SearchSettings(
    name="expert-v1",
    budget=Budget(iterations=40, seconds=0.24),
    opponent_models=(("lookahead", 1.0),),
    own_model="lookahead",
    inference=False,
)

# Opponent models and inference: each opponent a careful beginner or a look-ahead player
# (modelling only careful players won 67% against careful beginners but 33% against
# expert-v1), its own later cards played carefully.
EXPERT_V2 = SearchSettings(
    name="expert-v2",
    budget=Budget(iterations=100, seconds=0.5),
    opponent_models=(("careful", 0.5), ("lookahead", 0.5)),
    own_model="careful",
    inference=True,
)

# A hand nobody won judged by the race to the target, and the last three tricks exact.
EXPERT_V3 = replace(EXPERT_V2, name="expert-v3", race_value=True, exact_cards=3)

# The distilled policy (fitted to the search bots' own choices) as a third opponent model
# with half of the prior, and the bot's own later cards played by it. Inference still
# recognises a careful beginner and plays it out as one.
EXPERT_V4 = replace(
    EXPERT_V3,
    name="expert-v4",
    opponent_models=(("careful", 0.25), ("lookahead", 0.25), ("distilled", 0.5)),
    own_model="distilled",
)

EXPERTS = (EXPERT_V1, EXPERT_V2, EXPERT_V3, EXPERT_V4)
