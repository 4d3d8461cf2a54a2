"""Computer players, by level name."""

from .base import Bot, Budget
from .careful import CarefulBot
from .expert import ExpertBot
from .expert_v1 import ExpertV1Bot
from .expert_v3 import ExpertV3Bot
from .expert_v4 import ExpertV4Bot
from .heuristic import HeuristicBot
from .levels import EASY, HARD, LEVEL_OF_BOT, LEVELS, MEDIUM, Level
from .random_bot import RandomBot

BOT_CLASSES: dict[str, type[Bot]] = {
    cls.name: cls
    for cls in (
        RandomBot,
        CarefulBot,
        HeuristicBot,
        ExpertV1Bot,
        ExpertBot,
        ExpertV3Bot,
        ExpertV4Bot,
    )
}
BOT_NAMES = tuple(BOT_CLASSES)
SEARCH_BOTS = frozenset(name for name, cls in BOT_CLASSES.items() if cls.searches)
assert {level.bot for level in LEVELS} <= set(BOT_NAMES)


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """Return a new bot of level ``name``; raise ValueError for an unknown level."""
    try:
        cls = BOT_CLASSES[name]
    except KeyError:
        known = ", ".join(BOT_NAMES)
        raise ValueError(f"Unknown bot {name!r}: choose one of {known}.") from None
    return cls(seed)


__all__ = [
    "BOT_CLASSES",
    "BOT_NAMES",
    "EASY",
    "HARD",
    "LEVELS",
    "LEVEL_OF_BOT",
    "MEDIUM",
    "SEARCH_BOTS",
    "Bot",
    "Budget",
    "CarefulBot",
    "ExpertBot",
    "ExpertV1Bot",
    "ExpertV3Bot",
    "ExpertV4Bot",
    "HeuristicBot",
    "Level",
    "RandomBot",
    "make_bot",
]
