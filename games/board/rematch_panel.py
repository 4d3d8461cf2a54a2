"""What the result panel says about a rematch (reads only; offers live in ``rematch``)."""

from __future__ import annotations

from django.utils import timezone

from accounts.selectors import public_name
from common.kept_rows import row_exists
from games.models import Game, Rematch


def is_open(offer: Rematch | None, now=None) -> bool:
    """Whether ``offer`` still waits for answers."""
    now = now or timezone.now()
    return (
        offer is not None
        and offer.new_game_id is None
        and offer.declined_by_id is None
        and offer.expires_at > now
    )


def rematch_panel(
    game: Game, seats: list[dict], viewer_seat: int | None, offered: bool = True
) -> dict:
    """What the result panel says about a rematch, for one viewer (``offered`` False: no
    offer can exist yet, as the game has just ended)."""
    panel = {"can_offer": viewer_seat is not None, "state": "none"}
    if not offered or not row_exists(Rematch, game_id=game.pk):  # every last board: a look
        return panel
    offer = Rematch.objects.filter(game=game).select_related("offered_by__profile").first()
    people = [s for s in seats if s["user_id"] is not None]
    if offer is None:
        return panel
    names = {s["number"]: s["name"] for s in seats}
    if offer.new_game_id is not None:
        return {**panel, "state": "started", "url": offer.new_game.get_absolute_url()}
    if offer.declined_by_id is not None:
        return {**panel, "state": "declined", "by": public_name(offer.declined_by)}
    now = timezone.now()
    if not is_open(offer, now):
        return {**panel, "state": "expired"}
    waiting = [names[s["number"]] for s in people if s["number"] not in offer.accepted]
    return {
        **panel,
        "state": "open",
        "by": public_name(offer.offered_by),
        "you_accepted": viewer_seat in offer.accepted,
        "waiting": waiting,
        "seconds_left": max(0, int((offer.expires_at - now).total_seconds())),
        "expires_at": int(offer.expires_at.timestamp() * 1000),
    }
