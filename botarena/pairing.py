"""Seating the arena's next games: the work ``manage.py bot_arena`` and the runners' arena
lane do. One transaction under the arena's lock: who is free, who has played what, the
trios chosen (``botarena.trios``) and the games made all commit together or not at all, so
a scheduler killed mid-way leaves nothing half-seated and eight at once seat nobody twice
(the lock serves them in turn; the database refuses an account live at two games)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from games.bots import LEVEL_BOTS
from games.table.seats import game_create_for

from .models import Arena, ArenaGame, ArenaSeat, Entrant
from .trios import Candidate, choose_trios, trio_key


def _levels() -> list[Entrant]:
    """The site's levels as entrants (made the first time)."""
    for level in LEVEL_BOTS:
        Entrant.objects.get_or_create(level=level)
    return list(Entrant.objects.filter(level__in=list(LEVEL_BOTS)))


def _free_accounts() -> list[Entrant]:
    """Bot accounts in the arena, active, and at no arena game now."""
    live = ArenaSeat.objects.filter(live=True, user__isnull=False).values("user_id")
    return list(
        Entrant.objects.filter(
            status=Entrant.Status.ACTIVE,
            user__isnull=False,
            user__is_active=True,
            user__profile__is_bot=True,
        )
        .exclude(user_id__in=live)
        .select_related("user")
    )


def arena_tick(*, games_at_once: int | None = None) -> int:
    """Seat the arena's next games, up to ``games_at_once`` running; the number seated."""
    if games_at_once is None:
        games_at_once = settings.COINS_BOT_ARENA_GAMES
    Arena.objects.get_or_create(pk=1)
    with transaction.atomic():
        Arena.objects.select_for_update().filter(pk=1).update(paired_at=timezone.now())
        levels = _levels()
        slots = games_at_once - ArenaGame.objects.filter(scored=False).count()
        if slots <= 0:
            return 0
        entrants = {e.key: e for e in [*_free_accounts(), *levels]}
        candidates = [Candidate(e.key, bool(e.user_id), e.games) for e in entrants.values()]
        met = dict(
            ArenaGame.objects.values("trio").annotate(n=Count("pk")).values_list("trio", "n")
        )
        made = ArenaGame.objects.count()
        trios = choose_trios(candidates, met, slots)
        for number, trio in enumerate(trios, start=made):
            _seat(trio_order(trio, number), entrants)
        return len(trios)


def trio_order(trio: tuple[str, str, str], number: int) -> tuple[str, ...]:
    """The seats of the arena's ``number``-th game: its trio sorted, turned by ``number``
    (every entrant deals first in turn)."""
    keys = sorted(trio)
    turn = number % 3
    return (*keys[turn:], *keys[:turn])


def _seat(order: tuple[str, ...], entrants: dict[str, Entrant]) -> None:
    seated = [entrants[key] for key in order]
    game = game_create_for(
        people=[e.user if e.user_id else None for e in seated],
        bot=tuple(LEVEL_BOTS[e.level] for e in seated if not e.user_id),
        target=settings.COINS_BOT_ARENA_TARGET,
        clock=settings.COINS_BOT_ARENA_CLOCK,
        is_rated=True,
        is_public=True,
    )
    arena_game = ArenaGame.objects.create(game=game, trio=trio_key(order))
    ArenaSeat.objects.bulk_create(
        ArenaSeat(arena_game=arena_game, entrant=e, user_id=e.user_id, number=n)
        for n, e in enumerate(seated)
    )
    Entrant.objects.filter(pk__in=[e.pk for e in seated]).update(games=F("games") + 1)
