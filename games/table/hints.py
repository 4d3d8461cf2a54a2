"""Hints: the card the strongest bot would play for you, and why, in one sentence."""

from __future__ import annotations

from itertools import permutations

from django.utils.translation import gettext as _

from accounts import throttles
from accounts.selectors import cached_profile
from games.board.card_names import card_label
from games.engine import CARD_POINTS, NotYourTurn, SeatView, resolve_trick
from games.engine.bots import HARD
from games.models import Game
from games.table.invites import policy_of
from games.table.loading import game_load
from games.table.seats import GameError, GameNotFound, NotSeated, require_running

HINT_BOT = HARD.bot  # hints think like the hard level, with its budget
HINTS_PER_MINUTE = 10  # per person, over all their sockets and server processes


class HintRefused(GameError):
    """A hint asked for too often."""


def take_hint_slot(user_id: int) -> None:
    """Count a hint against this minute's allowance; raise HintRefused past it. The count
    lives in the shared cache, so every socket and process sees it; if the cache is down,
    hints are allowed (a hint costs one search in the worker pool)."""
    if throttles.count("hints", str(user_id), window=60) > HINTS_PER_MINUTE:
        raise HintRefused(
            _("You have asked for %(n)d hints this minute: wait a little before the next.")
            % {"n": HINTS_PER_MINUTE}
        )


def win_chance(view: SeatView, card: int) -> float:
    """The share of ways the seats after us could answer in which ``card`` wins the trick."""
    answers = list(permutations(view.unseen_cards(), 2 - len(view.trick)))  # [()] if last
    position = len(view.trick)
    wins = sum(resolve_trick(*view.trick, card, *answer)[0] == position for answer in answers)
    return wins / len(answers)


def explain(view: SeatView, card: int) -> str:
    """One sentence saying why ``card`` is a good play from ``view``."""
    name = card_label(card)
    coins = sum(CARD_POINTS[c] for c in view.trick) + CARD_POINTS[card]
    if len(view.trick) == 2:
        if resolve_trick(*view.trick, card)[0] == 2:
            if coins:
                return _("Play the %(card)s: it wins the trick and its %(n)d Coins.") % {
                    "card": name,
                    "n": coins,
                }
            return _("Play the %(card)s: it wins the trick and the lead.") % {"card": name}
        if CARD_POINTS[card]:
            return _(
                "Play the %(card)s: every card loses this trick, and this one costs least."
            ) % {"card": name}
        return _(
            "Play the %(card)s: this trick is lost, so give away no Coins and keep your "
            "strong cards."
        ) % {"card": name}
    chance = round(100 * win_chance(view, card))
    return _(
        "Play the %(card)s: it takes this trick in about %(p)d of 100 ways the others "
        "could answer, and it scored best when the expert played out the hands they may hold."
    ) % {"card": name, "p": chance}


def hint_view(*, game_id: int, user) -> tuple[str, SeatView]:
    """Return (seed, view) for a hint to ``user``; raise GameError when none may be given.

    Hints are for casual games, on your own turn, if your profile asks for them.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise GameNotFound(_("There is no such game."))
    require_running(game)
    if game.is_rated:
        raise GameError(_("Hints are off in rated games."))
    if policy_of(game).get("no_hints"):
        raise GameError(_("Hints are off in this game."))
    profile = cached_profile(user)
    if profile is not None and not profile.show_hints:
        raise GameError(_("Hints are turned off in your profile."))
    loaded = game_load(game)
    seat = loaded.seat_of(user)
    if seat is None:
        raise NotSeated(_("You are not seated at this table."))
    if loaded.state.to_play != seat.number:
        raise NotYourTurn(_("A hint is for your own turn."))
    take_hint_slot(user.pk)
    return f"{game.seed}/hint/{game.moves}", loaded.state.view_for(seat.number)
