"""Playing the daily duplicate: one game per person, day and number, started or resumed."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import Game
from games.table.errors import GameError
from games.table.seats import ME, game_create, lock_person

from . import days
from .models import DuplicateDay, DuplicateEntry


def duplicate_play(*, user, number: int, day: date) -> Game:
    """Start ``user``'s game ``number`` of ``day`` (seat 0, against two bots, dealt from the
    day's secret seed), or return the one they already have.

    The person's row is locked first, so their requests are served one after the other and a
    second one finds the first one's game; the unique constraint stands behind that.
    """
    if number not in days.numbers():
        raise GameError(_("There is no such game today."))
    try:
        with transaction.atomic():
            lock_person(user)
            entry = DuplicateEntry.objects.filter(day__date=day, number=number, user=user).first()
            if entry is not None:
                return entry.game
            duplicate_day, _created = DuplicateDay.objects.get_or_create(date=day)
            bot = settings.COINS_DUPLICATE_BOT
            game = game_create(
                creator=user,
                target=settings.COINS_DUPLICATE_TARGET,
                seat_kinds=[ME, bot, bot],
                is_public=False,
                is_rated=False,
                seed=days.seed_of(day, number),
            )
            DuplicateEntry.objects.create(day=duplicate_day, number=number, user=user, game=game)
            return game
    except IntegrityError:  # another request made it first (a day row, or this very game)
        entry = DuplicateEntry.objects.filter(day__date=day, number=number, user=user).first()
        if entry is None:
            raise
        return entry.game
