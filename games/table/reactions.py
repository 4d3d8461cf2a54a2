"""Emoji reactions at the table: a small fixed set that seated people send to the table.

A reaction is ephemeral: it is checked and counted here, shown for a moment on the pages
open at the table, and never stored (it is in no game record and no replay). Who may react:
the people seated at the table (players, at any stage: waiting, playing, and after the end,
where "good game" belongs), never spectators or visitors. Each person has at most
``LIMITS`` at one table, counted atomically in the shared cache (Redis in production), so a
burst from many tabs and server processes at once cannot pass them. People who muted the
sender in chat do not see their reactions (``games.realtime.reaction_socket``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import throttles
from accounts.selectors import public_name
from games.models import Seat


@dataclass(frozen=True)
class Reaction:
    id: str
    emoji: str
    label: Promise  # what a screen reader says, in the reader's language


# The set, in the order of the buttons. Ids are what a page sends: {"react": "clap"}.
REACTIONS = {
    reaction.id: reaction
    for reaction in (
        Reaction("thumbs_up", "👍", gettext_lazy("Thumbs up")),
        Reaction("clap", "👏", gettext_lazy("Applause")),
        Reaction("wow", "😮", gettext_lazy("Surprised")),
        Reaction("laugh", "😂", gettext_lazy("Laughing")),
        Reaction("thinking", "🤔", gettext_lazy("Thinking")),
        Reaction("good_game", "👋", gettext_lazy("Good game")),
    )
}

# Per person and table: (counter, how many, within how many seconds). One reaction every
# 2 s, and 6 a minute (after the 6th, the next minute starts with it).
LIMITS = (("reaction", 1, 2), ("reactions", 6, 60))


class ReactionRefused(Exception):
    """A reaction that is not passed on; the message is for the sender."""


def reaction_send(*, game_id: int, user, reaction: object) -> dict:
    """Check ``user``'s ``reaction`` at the table and count it against their limits.

    Return what every page shows: plain values, so they can travel in a channel-layer
    event. Raise ReactionRefused, with a reason for the sender and nothing counted
    (except the attempt itself when it is too fast), for an unknown reaction, someone not
    seated at the table, or a reaction past the limits.
    """
    if not isinstance(reaction, str) or reaction not in REACTIONS:
        raise ReactionRefused(_("There is no such reaction."))
    if user is None or not user.is_authenticated:
        raise ReactionRefused(_("Only the players at this table can react."))
    seat = Seat.objects.filter(game_id=game_id, user=user).values_list("number", flat=True).first()
    if seat is None:
        raise ReactionRefused(_("Only the players at this table can react."))
    _take_slots(user.pk, game_id)
    return {"reaction": reaction, "seat": seat, "user_id": user.pk, "name": public_name(user)}


def _take_slots(user_id: int, game_id: int) -> None:
    for counter, allowed, window in LIMITS:
        within = throttles.take(counter, (user_id, game_id), allowed, window)
        if within is None:  # the cache is down: reactions are a nicety, they wait for it
            raise ReactionRefused(_("Reactions are unavailable for a moment: try again soon."))
        if not within:
            raise ReactionRefused(
                _("One reaction at a time: wait a moment.")
                if allowed == 1
                else _("That is a lot of reactions: wait a minute.")
            )


def reaction_choices() -> list[Reaction]:
    """The reactions, in the order of their buttons."""
    return list(REACTIONS.values())


def shown_reaction(data: dict) -> dict:
    """What a page shows of a reaction ``reaction_send`` passed on (in the language active
    now: each socket renders in its own viewer's)."""
    return {**data, "reaction": REACTIONS[data["reaction"]]}
