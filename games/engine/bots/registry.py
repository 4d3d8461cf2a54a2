"""Every bot by name: how to make one, its own budget, and whether it searches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from .base import Bot, Budget
from .experts import EXPERTS
from .policies import BOT_POLICIES, PolicyBot
from .search import SearchBot, SearchSettings


@dataclass(frozen=True)
class BotSpec:
    """A bot by name. ``make(seed, budget)`` returns a new one; ``budget`` is its own (None
    for a bot that does not think); ``searches`` marks a bot that needs a worker process."""

    name: str
    make: Callable[[int | str | None, Budget | None], Bot] = field(repr=False)
    budget: Budget | None = None
    searches: bool = False


def policy_spec(name: str, policy) -> BotSpec:
    return BotSpec(name, partial(PolicyBot, name, policy))


def search_spec(settings: SearchSettings) -> BotSpec:
    return BotSpec(settings.name, partial(SearchBot, settings), settings.budget, searches=True)


BOTS: dict[str, BotSpec] = {
    spec.name: spec
    for spec in (
        *(policy_spec(name, policy) for name, policy in BOT_POLICIES.items()),
        *(search_spec(settings) for settings in EXPERTS),
    )
}
BOT_NAMES = tuple(BOTS)
SEARCH_BOTS = frozenset(name for name, spec in BOTS.items() if spec.searches)


def make_bot(name: str, seed: int | str | None = None, budget: Budget | None = None) -> Bot:
    """Return a new bot ``name`` seeded with ``seed``, thinking with ``budget`` instead of
    its own if given; raise ValueError for an unknown name."""
    try:
        spec = BOTS[name]
    except KeyError:
        known = ", ".join(BOT_NAMES)
        raise ValueError(f"Unknown bot {name!r}: choose one of {known}.") from None
    return spec.make(seed, budget)
