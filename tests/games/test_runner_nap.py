"""How long a table runner naps (``games/table/alarm.py``): until the earliest due time its
own process committed that its last look did not cover, at most the poll; with no statement.
The clock here is the test's own."""

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from games.table import alarm

POLL = 0.5


@pytest.fixture
def clock(monkeypatch, settings):
    """The alarm's clock, moved by the test; nothing kept from earlier tests."""
    settings.COINS_RUNNER_POLL = POLL
    now = SimpleNamespace(value=1_000_000.0)
    monkeypatch.setattr(alarm, "time", SimpleNamespace(time=lambda: now.value))
    monkeypatch.setattr(alarm, "_scheduled", [])
    monkeypatch.setattr(alarm, "_looked_at", 0.0)
    monkeypatch.setattr(alarm, "_loop", None)  # no runner sleeping: nothing to ring
    return now


def due(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def test_with_nothing_scheduled_here_the_runner_naps_the_poll(clock):
    assert alarm.seconds_to_next(POLL) == POLL


def test_it_naps_until_the_earliest_time_this_process_scheduled(clock):
    alarm.looking()
    alarm.wake_for(due(clock.value + 0.3))
    alarm.wake_for(due(clock.value + 0.1))
    alarm.wake_for(None)  # a game taken off the schedule
    assert alarm.seconds_to_next(POLL) == pytest.approx(0.1)
    clock.value += 0.1  # woken then: it looks, and serves that game
    alarm.looking()
    assert alarm.seconds_to_next(POLL) == pytest.approx(0.2)


def test_a_time_its_last_look_covered_is_forgotten(clock):
    alarm.wake_for(due(clock.value))  # committed, due at once
    clock.value += 0.01
    alarm.looking()  # the look that finds it
    clock.value += 0.01
    assert alarm.seconds_to_next(POLL) == POLL
    assert alarm._scheduled == []


def test_a_game_committed_after_the_look_began_is_looked_for_again_at_once(clock):
    """Due before the look, but committed while it ran: the look may have missed it."""
    started = clock.value
    alarm.looking()
    clock.value += 0.005
    alarm.wake_for(due(started - 0.001))
    assert alarm.seconds_to_next(POLL) <= 0
    clock.value += 0.001
    alarm.looking()  # the next look finds it
    assert alarm.seconds_to_next(POLL) == POLL


def test_a_game_due_after_the_look_is_not_forgotten(clock):
    alarm.wake_for(due(clock.value + 0.02))
    alarm.looking()
    clock.value += 0.05  # due since the look: the nap is nil, the next look serves it
    assert alarm.seconds_to_next(POLL) < 0


def test_far_times_wait_for_their_turn_and_the_poll_bounds_the_nap(clock):
    alarm.wake_for(due(clock.value + 600))  # an idle check in ten minutes
    alarm.looking()
    assert alarm.seconds_to_next(POLL) == POLL
    clock.value += 599.8
    alarm.looking()
    assert alarm.seconds_to_next(POLL) == pytest.approx(0.2)


def test_times_a_poll_old_are_dropped_so_a_process_with_no_runner_keeps_few(clock):
    for _ in range(1000):
        alarm.wake_for(due(clock.value))
        clock.value += 0.01
    kept = len(alarm._scheduled)
    assert kept <= POLL / 0.01 + 1  # the last half second's only


def test_a_sleeping_runner_is_woken_for_a_game_due_before_its_nap_ends(clock, monkeypatch):
    rung = []
    loop = SimpleNamespace(call_soon_threadsafe=lambda call: rung.append(call))
    monkeypatch.setattr(alarm, "_loop", loop)
    monkeypatch.setattr(alarm, "_bell", SimpleNamespace(set="ring"))
    monkeypatch.setattr(alarm, "_sleeps_until", clock.value + 0.5)
    alarm.wake_for(due(clock.value + 0.8))  # after it wakes anyway
    assert rung == []
    alarm.wake_for(due(clock.value + 0.2))
    assert rung == ["ring"]
