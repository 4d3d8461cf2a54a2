"""Names people cannot be mistaken by: lookalike usernames and names that pass for a bot.

``lookalike_key`` is the name's confusable skeleton (Unicode TR39: every character replaced
by the prototype of the characters that look like it), case-folded: "carol", "Carol",
"caroI" (capital i), "caro1" and "carol" spelt with a Cyrillic "a" (U+0430) all have the key
"carol". Keys are unique in the database (``Profile.username_skeleton``), so two lookalike
accounts cannot both exist, however close together they sign up. The prototypes come from
the maintained ``confusable-homoglyphs`` package (Unicode's confusables.txt), which also
tells a name that mixes scripts dangerously (Latin with a Cyrillic look-alike letter).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import confusables
from django.conf import settings
from django.utils import translation

DIRECTION_MARKS = "\u200e\u200f"  # around right-to-left glyphs in the package's data
BOT_WORD = re.compile(r"\d*bots?\d*")  # a word that says "bot", digits aside ("bot2")
WORD_BOUNDARY = re.compile(r"[^\w]+|_|(?<=[a-z])(?=[A-Z])")  # separators and camelCase


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character mapped to its prototype (a character or a short sequence).

    The package lists, for a confusable character, its one prototype, and for a prototype,
    every character confusable with it. Two characters that only name each other are a pair
    whose prototype is unknown: one of them stands for both.
    """
    data: dict[str, list[str]] = {}
    for char, glyphs in confusables.confusables_data.items():
        targets = [glyph["c"].strip(DIRECTION_MARKS) for glyph in glyphs]
        data.setdefault(char.strip(DIRECTION_MARKS), []).extend(targets)
    mapping = {}
    for char, targets in data.items():
        if len(char) != 1 or len(targets) != 1:
            continue
        target = targets[0]
        if data.get(target) == [char]:
            target = min(char, target)
        if target != char:
            mapping[char] = target
    return mapping


def _map(text: str) -> str:
    table = prototypes()
    for _round in range(3):  # a few prototypes are sequences holding mappable characters
        mapped = unicodedata.normalize("NFD", "".join(table.get(char, char) for char in text))
        if mapped == text:
            break
        text = mapped
    return text


def lookalike_key(name: str) -> str:
    """The case-folded confusable skeleton of ``name``: equal keys look alike."""
    text = _map(unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name)))
    text = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text).casefold())
    return _map(text)


def mixes_scripts_dangerously(name: str) -> bool:
    """Whether ``name`` mixes scripts with a character confusable with another script's."""
    return bool(confusables.is_dangerous(name))


def _compact(name: str) -> str:
    return "".join(char for char in lookalike_key(name) if char.isalnum())


@functools.cache
def _reserved_for_bots(languages: tuple[str, ...]) -> frozenset[str]:
    from games.bots import SEAT_BOTS, bot_labels
    from games.models import BOT_PERSONAS

    names = {*BOT_PERSONAS, *SEAT_BOTS}
    for language in languages:
        with translation.override(language):
            names.update(bot_labels())
    return frozenset(_compact(name) for name in names)


def passes_for_a_bot(name: str) -> bool:
    """Whether ``name`` could be taken for one of the site's bots: a persona ("Alba"), an
    engine or level name ("expert-v4", "careful", "Hard", in any of the site's languages),
    or a name with "bot" as a word ("Alba_bot", "Bruno (bot)", "RoboBot", "b0t")."""
    languages = tuple(code for code, _name in settings.LANGUAGES)
    if _compact(name) in _reserved_for_bots(languages):
        return True
    words = (word for word in WORD_BOUNDARY.split(name) if word)
    return any(BOT_WORD.fullmatch(lookalike_key(word)) for word in words)
