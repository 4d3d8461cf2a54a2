"""The bots a seat may hold, and the names people see them by.

A seat keeps its bot's engine name, so a record always names the bot that really played, even
after a level has moved on to a stronger bot. Which names a table accepts is the services'
check (``SEAT_BOTS``), not the database's: moving a level to another bot is one line in
``games.engine.bots.levels``, with no migration.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.bots import BOT_NAMES, LEVELS

LEVEL_LABELS = {"easy": _("Easy"), "medium": _("Medium"), "hard": _("Hard")}
OTHER_LABELS = {  # bots no level offers (any other is shown as "<name> (retired)")
    "random": _("Random"),
    "expert-v1": _("Expert v1 (retired)"),
    "expert-v2": _("Expert v2 (retired)"),
    "expert-v3": _("Expert v3 (retired)"),
}
SEAT_BOTS = frozenset(BOT_NAMES)  # every bot the engine has may sit at a table
OFFERED_BOTS = tuple(level.bot for level in LEVELS)  # what new tables offer, easiest first
LEVEL_BOTS = {level.key: level.bot for level in LEVELS}
MEDIUM = LEVEL_BOTS["medium"]


def bot_label(name: str) -> str:
    """What people call the bot ``name``: its level, or what it is."""
    for level in LEVELS:
        if level.bot == name:
            return str(LEVEL_LABELS[level.key])
    if name in OTHER_LABELS:
        return str(OTHER_LABELS[name])
    return _("%(bot)s (retired)") % {"bot": name}


def bot_labels() -> list[str]:
    """Every label a bot goes by (names that would pass for a bot's)."""
    return [*map(str, LEVEL_LABELS.values()), *map(str, OTHER_LABELS.values())]
