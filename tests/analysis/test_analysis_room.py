"""The analysis lane yields to the tables: it takes a game only while the machine has room,
its worker waits at a gate between cards while the machine is busy (and between its slices
while people are playing), and the game's lease is renewed meanwhile (analysis/room.py,
analysis/lane.py)."""

import asyncio
import concurrent.futures
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from analysis import lane, room, services
from analysis.models import GameAnalysis
from analysis.work import work
from games.table import thinking
from tests.analysis.test_analysis_service import finished_game

# cpu  user nice system idle iowait irq softirq steal guest guest_nice
STAT = "cpu  {user} {nice} 30 {idle} 20 5 5 10 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n"


def stat_file(tmp_path: Path, user: int, nice: int, idle: int) -> Path:
    path = tmp_path / "stat"
    path.write_text(STAT.format(user=user, nice=nice, idle=idle))
    return path


def test_the_machines_cpu_time_leaves_niced_work_out(tmp_path):
    normal, total = room.cpu_times(stat_file(tmp_path, user=100, nice=50, idle=800))
    assert normal == 100 + 30 + 5 + 5 + 10  # user, system, irq, softirq, steal
    assert total == normal + 50 + 800 + 20  # and nice, idle, iowait
    assert room.cpu_times(tmp_path / "missing") is None


def test_analyses_busy_with_every_core_leave_the_machine_room(tmp_path):
    """Two niced analyses taking every core: the share at normal priority stays low."""
    before = room.cpu_times(stat_file(tmp_path, user=100, nice=0, idle=900))
    after = room.cpu_times(stat_file(tmp_path, user=120, nice=180, idle=900))
    assert room.busy_share(before, after) == pytest.approx(20 / 200)
    tables = room.cpu_times(stat_file(tmp_path, user=260, nice=180, idle=940))
    assert room.busy_share(after, tables) == pytest.approx(140 / 180)
    assert room.busy_share(after, after) == 0.0


class Machine:
    """Readings made to order, and a clock moved by hand."""

    def __init__(self):
        self.normal = self.total = 0
        self.now = 0.0
        self.reads = 0

    def read(self):
        self.reads += 1
        return self.normal, self.total

    def run(self, seconds: float, share: float) -> None:
        self.now += seconds
        self.total += 100
        self.normal += round(100 * share)


def test_a_busy_moment_takes_the_room_at_once_and_quiet_ones_in_a_row_give_it_back():
    machine = Machine()
    verdicts = room.Room(0.5, read=machine.read, clock=lambda: machine.now)
    assert verdicts.has_room()  # nothing measured yet
    machine.run(room.SAMPLE_EVERY, share=0.8)
    assert not verdicts.has_room()
    reads = machine.reads
    machine.now += room.SAMPLE_EVERY / 2  # too soon for another verdict
    assert not verdicts.has_room() and machine.reads == reads
    for _ in range(room.QUIET_SAMPLES - 1):
        machine.run(room.SAMPLE_EVERY, share=0.3)
        assert not verdicts.has_room()  # not yet: the lull may be a moment's
    machine.run(room.SAMPLE_EVERY, share=0.3)
    assert verdicts.has_room()
    machine.run(room.SAMPLE_EVERY, share=0.5)  # at the limit: no room
    assert not verdicts.has_room()


def test_while_people_play_the_work_goes_on_one_moment_in_four_and_all_the_time_once_calm():
    machine = Machine()
    verdicts = room.Room(0.5, quiet=0.15, read=machine.read, clock=lambda: machine.now)
    assert verdicts.may_work()  # nothing measured yet: as on a calm machine
    moments = []
    for _ in range(3 * room.SLICE_EVERY):
        machine.run(room.SAMPLE_EVERY, share=0.3)  # tables in play, the machine not busy
        assert verdicts.has_room()  # a game may be taken ...
        moments.append(verdicts.may_work())  # ... and is worked in slices
    assert moments == ([False] * (room.SLICE_EVERY - 1) + [True]) * 3
    machine.now += room.SAMPLE_EVERY / 2  # within a moment the verdict stands
    assert verdicts.may_work()
    for _ in range(room.QUIET_SAMPLES - 1):  # a lull may be a moment's: still in slices
        machine.run(room.SAMPLE_EVERY, share=0.1)
        verdicts.may_work()
    calm = []
    for _ in range(2 * room.SLICE_EVERY):  # quiet moments in a row: every moment works
        machine.run(room.SAMPLE_EVERY, share=0.1)
        calm.append(verdicts.may_work())
    assert all(calm)
    back = []
    for _ in range(room.SLICE_EVERY):  # people play again: back to slices at once
        machine.run(room.SAMPLE_EVERY, share=0.3)
        back.append(verdicts.may_work())
    assert back.count(True) == 1
    busy = []
    for _ in range(room.SLICE_EVERY):  # busy: no room, and no slice either
        machine.run(room.SAMPLE_EVERY, share=0.6)
        busy.append(verdicts.has_room() or verdicts.may_work())
    assert not any(busy)


def test_the_servers_of_one_machine_work_in_the_same_slices():
    """Each server has a room of its own, started when the server started; cut from the
    shared clock, their slices agree, so that the machine's cores idle together."""
    machine = Machine()

    def server_room():
        return room.Room(0.5, quiet=0.15, read=machine.read, clock=lambda: machine.now)

    first = server_room()
    machine.run(3 * room.SAMPLE_EVERY, share=0.3)
    first.may_work()
    second = server_room()  # a server started a moment and a half later
    both = []
    for _ in range(3 * room.SLICE_EVERY):
        machine.run(room.SAMPLE_EVERY, share=0.3)
        both.append((first.may_work(), second.may_work()))
    assert both.count((True, True)) == 3 and all(a == b for a, b in both)


def test_a_limit_of_one_never_reads_the_machine():
    machine = Machine()
    verdicts = room.Room(1.0, read=machine.read, clock=lambda: machine.now)
    machine.run(10, share=1.0)
    assert verdicts.has_room() and verdicts.may_work() and machine.reads == 0


def test_a_limit_of_zero_never_has_room_not_even_before_its_first_measure():
    """A server whose analyses are left to another machine takes none, even at its start."""
    machine = Machine()
    verdicts = room.Room(0, read=machine.read, clock=lambda: machine.now)
    assert not verdicts.has_room()
    machine.run(10, share=0.0)
    assert not verdicts.has_room() and not verdicts.may_work()


@pytest.fixture
def analysis_pool(monkeypatch, fresh_pools):
    """Analysis workers at normal priority: on the idle class, a machine kept busy by other
    work (a loaded test run) could leave them no CPU to start in."""
    monkeypatch.setattr(thinking, "ANALYSIS_NICENESS", 0)


def test_a_worker_waits_at_a_closed_gate_and_goes_on_when_it_opens(analysis_pool):
    analysis = thinking.pool(thinking.ANALYSIS)
    assert analysis.submit(thinking.wait_for_room).result(timeout=60) is None  # open
    thinking.pause_lane(thinking.ANALYSIS, True)
    waiting = analysis.submit(thinking.wait_for_room)
    with pytest.raises(concurrent.futures.TimeoutError):
        waiting.result(timeout=1)  # it cannot pass while the gate is closed
    thinking.pause_lane(thinking.ANALYSIS, False)
    assert waiting.result(timeout=60) is None
    with pytest.raises(ValueError):
        thinking.pause_lane(thinking.BOTS, True)  # the bots never wait


def test_a_shutdown_opens_the_gate_of_a_waiting_worker(analysis_pool):
    thinking.pause_lane(thinking.ANALYSIS, True)
    waiting = thinking.pool(thinking.ANALYSIS).submit(thinking.wait_for_room)
    thinking.shutdown_pools()  # would wait for the worker for good behind a closed gate
    assert waiting.done()


@pytest.mark.django_db
def test_the_work_waits_for_room_before_every_card(alice, monkeypatch):
    job = services.job_for(GameAnalysis.objects.get(game=finished_game(alice)))
    looks = []
    monkeypatch.setattr("analysis.work.wait_for_room", lambda: looks.append(len(looks)))
    result = work(job)
    assert len(looks) == len(job.moves) == len(result["plays"])


@pytest.mark.django_db
def test_a_lease_is_renewed_while_the_claim_is_ours_only(alice):
    finished_game(alice)
    first = services.claim_next()
    later = timezone.now() + timedelta(minutes=4)
    assert services.renew_lease(first, now=later)
    analysis = GameAnalysis.objects.get(pk=first.analysis_id)
    assert analysis.lease_until == later + services.LEASE
    # renewed: not taken when the first lease would have run out
    assert services.claim_next(now=later + timedelta(minutes=2)) is None
    second = services.claim_next(now=later + services.LEASE + timedelta(seconds=1))
    assert second is not None  # the lane stopped renewing: another takes the game
    assert not services.renew_lease(first)  # and the first can no longer hold it
    assert GameAnalysis.objects.get(pk=first.analysis_id).attempts == second.attempt


class Verdicts:
    """A room whose verdicts are given in turn; ``spent`` is set once they are all given."""

    def __init__(self, *verdicts: bool):
        self.verdicts = list(verdicts)
        self.spent = asyncio.Event()

    def has_room(self) -> bool:
        if len(self.verdicts) == 1:
            self.spent.set()
        return self.verdicts.pop(0) if len(self.verdicts) > 1 else self.verdicts[0]

    may_work = has_room  # the lane's gate asks this one


async def test_the_gate_follows_the_rooms_moments_and_the_lease_is_renewed(monkeypatch):
    gate, renewals = [], []
    monkeypatch.setattr(lane, "pause_lane", lambda _lane, paused: gate.append(paused))
    monkeypatch.setattr(lane, "RENEW_EVERY", 0)
    monkeypatch.setattr(services, "renew_lease", lambda job: renewals.append(job) or True)
    verdicts = Verdicts(True, False, False, True, False, True)
    keeper = asyncio.create_task(lane.keep_while_working("job", verdicts, every=0))
    await verdicts.spent.wait()
    keeper.cancel()
    await asyncio.gather(keeper, return_exceptions=True)
    assert gate == [True, False, True, False]  # closed and opened as the room went and came
    assert renewals and set(renewals) == {"job"}


async def test_a_busy_machine_keeps_the_queue_untouched(monkeypatch):
    verdicts = Verdicts(False, False, False)
    claims = []
    monkeypatch.setattr(lane, "Room", lambda *limits: verdicts)
    monkeypatch.setattr(lane, "SAMPLE_EVERY", 0)
    monkeypatch.setattr(services, "claim_next", lambda: claims.append(1))
    forever = asyncio.create_task(lane.analyse_forever())
    await verdicts.spent.wait()
    forever.cancel()
    await asyncio.gather(forever, return_exceptions=True)
    assert claims == []
