"""Computer players, by name: a library of ideas (see docs/bots.md, "How the bots are built").

``policies/`` (ways to choose a card without searching), ``search/`` (the one search bot and
its settings), ``values/`` (what a hand's end is worth), ``data/`` (generated tables);
``experts.py`` configures the search bots, ``levels.py`` maps easy/medium/hard to bots.
"""

from .base import Bot, Budget
from .experts import EXPERT_V1, EXPERT_V2, EXPERT_V3, EXPERT_V4, EXPERTS
from .levels import EASY, HARD, LEVEL_OF_BOT, LEVELS, MEDIUM, Level
from .policies import PolicyBot
from .registry import BOT_NAMES, BOTS, SEARCH_BOTS, BotSpec, make_bot
from .search import SearchBot, SearchSettings

BOT_CLASSES = BOTS  # the former name: each entry has the ``budget`` and ``searches`` it had
assert {level.bot for level in LEVELS} <= set(BOT_NAMES)

__all__ = [
    "BOTS",
    "BOT_CLASSES",
    "BOT_NAMES",
    "EASY",
    "EXPERTS",
    "EXPERT_V1",
    "EXPERT_V2",
    "EXPERT_V3",
    "EXPERT_V4",
    "HARD",
    "LEVELS",
    "LEVEL_OF_BOT",
    "MEDIUM",
    "SEARCH_BOTS",
    "Bot",
    "BotSpec",
    "Budget",
    "Level",
    "PolicyBot",
    "SearchBot",
    "SearchSettings",
    "make_bot",
]
