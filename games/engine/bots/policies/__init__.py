"""Policies: ways to choose a card without searching, each one idea in its own module.

Two tables dispatch them by name. ``BOT_POLICIES``: the whole bots that play a policy of
their view (``random``, ``careful``, ``heuristic``). ``PLAYOUT_POLICIES``: the fast policies
a search plays its play-outs with and models its opponents by (``careful``, ``lookahead``,
``distilled``), each a `PlayoutPolicy` with one function per trick position.
"""

from .careful import CAREFUL, careful_card, careful_choice
from .distilled import DISTILLED
from .heuristic import heuristic_choice
from .lookahead import LOOKAHEAD
from .policy import ChoosePolicy, PlayoutPolicy, PolicyBot
from .uniform import random_choice

BOT_POLICIES: dict[str, ChoosePolicy] = {
    "random": random_choice,
    "careful": careful_choice,
    "heuristic": heuristic_choice,
}
PLAYOUT_POLICIES: dict[str, PlayoutPolicy] = {
    policy.name: policy for policy in (CAREFUL, LOOKAHEAD, DISTILLED)
}

__all__ = [
    "BOT_POLICIES",
    "CAREFUL",
    "DISTILLED",
    "LOOKAHEAD",
    "PLAYOUT_POLICIES",
    "ChoosePolicy",
    "PlayoutPolicy",
    "PolicyBot",
    "careful_card",
    "heuristic_choice",
    "random_choice",
]
