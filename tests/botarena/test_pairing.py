"""The arena's scheduler: bots in the arena are seated with each other and the site's
levels, one arena game each at a time, in one transaction under the arena's lock; a bot
that lost its seat to its clock is paused until it joins again."""

import pytest
from django.core.management import call_command

from botarena import pairing
from botarena.models import ArenaGame, ArenaSeat, Entrant
from botarena.pairing import arena_tick
from botarena.services import entry_join, entry_leave
from games.bots import LEVEL_BOTS
from games.models import Game, Seat
from lab.benchmarks.bursts import at_once
from ratings.models import RatingEvent

from .helpers import arena_bots, finish

pytestmark = pytest.mark.django_db


def live_games_by_account() -> dict[int, int]:
    counts: dict[int, int] = {}
    for user_id in Seat.objects.filter(
        game__status=Game.Status.IN_PROGRESS, user__isnull=False
    ).values_list("user_id", flat=True):
        counts[user_id] = counts.get(user_id, 0) + 1
    return counts


def test_bots_are_seated_rated_with_a_clock_among_themselves_and_the_levels(make_user, settings):
    bots = arena_bots(make_user, 4)
    assert 2 <= arena_tick(games_at_once=10) <= 4  # every bot at a table: nobody waits
    games = [a.game for a in ArenaGame.objects.select_related("game")]
    assert all(g.is_rated and g.clock == settings.COINS_BOT_ARENA_CLOCK for g in games)
    assert all(g.status == Game.Status.IN_PROGRESS and g.is_public for g in games)
    assert sorted(live_games_by_account()) == sorted(b.pk for b in bots)
    site = set(LEVEL_BOTS.values())
    assert {s.bot for s in Seat.objects.exclude(bot="")} <= site
    assert arena_tick(games_at_once=10) == 0  # all busy


def test_games_at_once_are_a_ceiling_and_finished_games_make_room(make_user):
    arena_bots(make_user, 5)
    assert arena_tick(games_at_once=2) == 2
    assert arena_tick(games_at_once=2) == 0
    finish(ArenaGame.objects.first().game)
    assert ArenaGame.objects.filter(scored=False).count() == 1
    assert arena_tick(games_at_once=2) == 1


def test_the_end_counts_games_and_wins_and_rates_the_bots(make_user):
    bot, *_ = arena_bots(make_user, 1)
    arena_tick(games_at_once=1)
    game = finish(ArenaGame.objects.get().game)
    assert game.status == Game.Status.FINISHED
    entrants = {e.key: e for e in Entrant.objects.all()}
    seated = ArenaSeat.objects.all()
    assert not seated.filter(live=True).exists()
    for arena_seat in seated:
        entrant = entrants[arena_seat.entrant.key]
        assert (entrant.games, entrant.played) == (1, 1)
        assert entrant.wins == int(arena_seat.number == game.winner_seat)
    assert RatingEvent.objects.filter(game=game).count() == 3
    assert entrants[f"u{bot.pk}"].status == Entrant.Status.ACTIVE
    finish(game)  # scored once
    assert Entrant.objects.get(user=bot).played == 1


def test_a_bot_that_loses_its_seat_to_its_clock_is_paused_until_it_joins_again(make_user):
    quiet, talker = arena_bots(make_user, 2)
    arena_tick(games_at_once=1)
    game = ArenaGame.objects.get().game
    ended = finish(game, silent=frozenset({quiet}))
    assert ended.seats.get(user=quiet).stand_in  # auto-played, then replaced, as a person
    paused = Entrant.objects.get(user=quiet)
    assert paused.status == Entrant.Status.PAUSED and paused.clock_losses == 1
    assert str(game.pk) in paused.reason
    assert Entrant.objects.get(user=talker).status == Entrant.Status.ACTIVE
    arena_tick(games_at_once=5)
    assert list(live_games_by_account()) == [talker.pk]
    entry_join(user=quiet)
    assert Entrant.objects.get(user=quiet).status == Entrant.Status.ACTIVE
    assert arena_tick(games_at_once=5) == 1


def test_a_bot_that_left_or_was_deactivated_is_not_seated(make_user):
    left, gone, stays = arena_bots(make_user, 3)
    entry_leave(user=left)
    gone.is_active = False
    gone.save()
    arena_tick(games_at_once=5)
    assert list(live_games_by_account()) == [stays.pk]


def test_games_stay_balanced_round_after_round(make_user):
    bots = arena_bots(make_user, 4)
    for _round in range(3):
        arena_tick(games_at_once=2)
        for arena_game in ArenaGame.objects.filter(scored=False):
            finish(arena_game.game)
    games = sorted(Entrant.objects.filter(user__in=bots).values_list("games", flat=True))
    assert games[-1] - games[0] <= 2 and sum(games) >= 6


def test_a_crash_mid_way_seats_nobody_and_the_next_look_seats_everyone(make_user, monkeypatch):
    arena_bots(make_user, 3)
    real = pairing.game_create_for
    made = []

    def crash_on_the_second_table(**kwargs):
        if made:
            raise RuntimeError("killed")
        made.append(1)
        return real(**kwargs)

    monkeypatch.setattr(pairing, "game_create_for", crash_on_the_second_table)
    with pytest.raises(RuntimeError):
        arena_tick(games_at_once=3)
    assert not Game.objects.exists() and not ArenaGame.objects.exists()
    assert set(Entrant.objects.values_list("games", flat=True)) == {0}
    monkeypatch.setattr(pairing, "game_create_for", real)
    assert arena_tick(games_at_once=3) >= 2
    assert sorted(live_games_by_account().values()) == [1, 1, 1]


@pytest.mark.django_db(transaction=True)
def test_eight_schedulers_at_once_never_seat_a_bot_twice(make_user):
    bots = arena_bots(make_user, 12)
    results = at_once([lambda: arena_tick(games_at_once=20)] * 8)
    assert not [r for r in results if isinstance(r, Exception)]
    assert sum(results) == ArenaGame.objects.count() >= 4
    assert sorted(live_games_by_account().values()) == [1] * len(bots)


def test_the_command_runs_the_scheduler_for_its_minutes(make_user):
    arena_bots(make_user, 2)
    call_command("bot_arena", "--minutes", "0", "--games-at-once", "1")
    assert ArenaGame.objects.count() == 1
