"""The levels people pick: each is one bot, with that bot's own budget.

Calibrated on the ladder (``manage.py ladder``, README): each level is clearly stronger than
the one below, and medium is the careful beginner written from the rules. A level's bot is
stored on the seat by its bot name, so a record always names the bot that really played,
even after a level moves on to a stronger bot.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    key: str  # what people pick: easy, medium, hard
    bot: str  # the bot that plays it (a name in BOT_CLASSES)


EASY = Level("easy", "heuristic")
MEDIUM = Level("medium", "careful")
HARD = Level("hard", "expert-v4")
LEVELS = (EASY, MEDIUM, HARD)
LEVEL_OF_BOT = {level.bot: level for level in LEVELS}
