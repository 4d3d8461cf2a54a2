"""Computer players, by level name."""

from .base import Bot, Budget
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOT_CLASSES: dict[str, type[Bot]] = {cls.name: cls for cls in (RandomBot, HeuristicBot, ExpertBot)}
BOT_NAMES = tuple(BOT_CLASSES)


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
    "Bot",
    "Budget",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "make_bot",
]
