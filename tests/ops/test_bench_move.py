"""``manage.py bench_move``: it times real cards of whole games and leaves nothing running."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Game

pytestmark = pytest.mark.django_db


def test_bench_move_times_each_card_and_leaves_no_game_running():
    out = StringIO()
    call_command("bench_move", moves=40, rounds=1, stdout=out)
    figures = json.loads(out.getvalue().splitlines()[-1])
    assert figures["moves"] == 40 and figures["games"] >= 1
    assert 0 < figures["cpu_ms_p50"] <= figures["cpu_ms_p90"]
    assert figures["cpu_ms_mean"] > 0
    counts = figures["cards_by_kind"]
    assert sum(counts.values()) == 40 and counts["other"] > 0
    assert figures["cpu_ms_mean_by_kind"]["other"] > 0
    played = Game.objects.filter(seats__user__username__startswith="bench-move-").distinct()
    assert played.exists()
    assert not played.filter(status__in=[Game.Status.IN_PROGRESS, Game.Status.WAITING]).exists()


def test_bench_move_runner_times_bot_cards_served_by_a_runner_across_games():
    """Enough cards to finish a game: its aftermath is served (not timed) and the next game's
    bot cards are timed too; nothing is left due for a runner to serve later."""
    out = StringIO()
    call_command("bench_move", moves=70, rounds=1, runner=True, stdout=out)
    figures = json.loads(out.getvalue().splitlines()[-1])
    assert figures["cards"] == 70 and figures["games"] >= 2
    assert 0 < figures["cpu_ms_p50"] <= figures["cpu_ms_p90"]
    assert 0 < figures["wall_ms_p50"] <= figures["wall_ms_p90"]
    played = Game.objects.filter(seats__user__username__startswith="bench-runner-").distinct()
    assert played.filter(status=Game.Status.FINISHED).exists()
    assert not played.exclude(due_at=None).exists()
    assert not played.filter(status__in=[Game.Status.IN_PROGRESS, Game.Status.WAITING]).exists()
