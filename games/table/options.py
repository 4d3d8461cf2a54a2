"""What a table can be made with, in one place: targets, clocks, find-a-game's waits, and the
bots the site seats of itself. The forms offer these, the services and find-a-game accept
only these."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.bots import MEDIUM

TARGETS = range(1, 100)  # any target from 1 to 99 points
COMMON_TARGETS = (10, 15, 20)  # offered first; find-a-game seats people by one of these
CLOCKS = {  # seconds each person has per card (None: no clock)
    None: _("No clock"),
    10: _("10 seconds per card"),
    20: _("20 seconds per card"),
    30: _("30 seconds per card"),
    60: _("1 minute per card"),
    86400: _("A day per card (slow play)"),
}
SLOW_CLOCK = 3600  # a clock this long or longer: people are told when it is their turn
QUEUE_CLOCKS = (10, 20, 30, 60)  # find-a-game's speeds
DEFAULT_CLOCK = 30
WAITS = {  # find-a-game: seconds before bots take the free seats (None: never)
    30: _("30 seconds"),
    120: _("2 minutes"),
    None: _("Never: people only"),
}
QUICK_PLAY_BOT = MEDIUM  # quick play's opponents: the medium level
QUEUE_BOT = MEDIUM  # who takes a find-a-game table's free seats
STAND_IN = MEDIUM  # plays for absent people, as their clock runs out and after


def clock_choices(clocks=CLOCKS) -> list[tuple[str, str]]:
    """A form's choices for ``clocks`` ("" for no clock)."""
    return [("" if seconds is None else str(seconds), CLOCKS[seconds]) for seconds in clocks]
