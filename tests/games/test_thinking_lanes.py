"""The thinking processes: hints in a lane of their own (lower priority, capped), and
workers that die with the process that started them."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games.table import thinking

from .sockets import at_my_turn

ROOT = Path(__file__).resolve().parents[2]


def test_hint_workers_run_below_the_bots_workers(fresh_pools):
    bots = thinking.pool(thinking.BOTS).submit(os.nice, 0).result(timeout=60)
    hints = thinking.pool(thinking.HINTS).submit(os.nice, 0).result(timeout=60)
    assert hints >= bots + thinking.HINT_NICENESS


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_analysis_workers_take_only_cpu_nothing_else_wants(fresh_pools):
    """An analysis runs for every finished game: on the idle class, never in a table's way
    (the bots' and the hints' workers stay in the normal class)."""
    analysis = thinking.pool(thinking.ANALYSIS).submit(os.sched_getscheduler, 0)
    assert analysis.result(timeout=60) == os.SCHED_IDLE
    for lane in (thinking.BOTS, thinking.HINTS):
        policy = thinking.pool(lane).submit(os.sched_getscheduler, 0).result(timeout=60)
        assert policy == os.SCHED_OTHER


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("table_runner")
async def test_a_full_hints_lane_refuses_at_once_and_the_game_goes_on(alice, settings):
    settings.COINS_HINTS_AT_ONCE = 0  # every hint finds the lane full
    _game, client, _frame = await at_my_turn(alice, rated=False)
    await client.send({"hint": "1"})
    refusal = await client.frame_where(lambda f: 'id="table-message"' in f)
    assert "ask again in a moment" in refusal
    assert thinking._asked[thinking.HINTS] == 0
    await client.play_to_the_end()
    await client.close()


SERVER_LIKE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coins_site.settings_test")
import django
django.setup()
from games.table import thinking
for lane in (thinking.BOTS, thinking.HINTS):
    thinking.pool(lane).submit(os.getpid).result(timeout=60)
print("ready", flush=True)
sys.stdin.read()
"""


def descendants(pid: int) -> set[int]:
    """Every process started under ``pid`` (read from /proc)."""
    found, frontier = set(), [pid]
    while frontier:
        parent = frontier.pop()
        children = Path(f"/proc/{parent}/task/{parent}/children")
        for child in children.read_text().split() if children.exists() else []:
            found.add(int(child))
            frontier.append(int(child))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def a_server_like(script: str) -> subprocess.Popen:
    """``script`` run as a server process would be: its lines on stdout, stdin to end it."""
    return subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_killed_server_leaves_no_thinking_process_behind():
    server = a_server_like(SERVER_LIKE)
    try:
        assert server.stdout.readline().strip() == "ready"
        workers = descendants(server.pid)
        assert len(workers) >= 2  # a worker per lane at least (and the resource tracker)
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in workers if alive(pid)]
    finally:
        if server.poll() is None:
            server.kill()


SERVER_STOPPING = """
import os, sys, time
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coins_site.settings_test")
import django
django.setup()
import daphne.cli
from coins_site import serve
from games.table import thinking

def serving():  # stands for Daphne's run: an analysis in hand, until a stop (stdin closes)
    analysis = thinking.pool(thinking.ANALYSIS)
    analysis.submit(os.getpid).result(timeout=60)
    busy = analysis.submit(time.sleep, 600)
    while not busy.running():
        time.sleep(0.05)
    print("ready", *analysis._processes, flush=True)
    sys.stdin.read()

daphne.cli.CommandLineInterface.entrypoint = serving
serve.main()
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc (Linux)")
def test_a_stopping_server_does_not_wait_for_its_workers_work():
    """Python's exit waits for a process pool's work in hand: a server told to stop sat
    behind a ten-minute analysis. ``coins_site.serve`` ends the workers first."""
    server = a_server_like(SERVER_STOPPING)
    try:
        ready, *workers = server.stdout.readline().split()
        assert ready == "ready" and workers
        server.stdin.close()  # Daphne's run returns: the server is stopping
        assert server.wait(timeout=60) == 0
        assert not [pid for pid in map(int, workers) if alive(pid)]
    finally:
        if server.poll() is None:
            server.kill()


def test_stopped_workers_leave_no_pool_thread_for_pythons_exit_to_wake(fresh_pools):
    """Python's exit wakes each pool's manager thread through a pipe that the thread closes
    as it ends. A thread still ending then (its workers just killed) had the exit write to
    the closed pipe: "Bad file descriptor" in stopped servers' logs. ``stop_workers_now``
    waits for the threads."""
    executors = [thinking.pool(lane) for lane in (thinking.BOTS, thinking.ANALYSIS)]
    for executor in executors:
        executor.submit(os.getpid).result(timeout=60)
    managers = [executor._executor_manager_thread for executor in executors]
    thinking.stop_workers_now()
    assert not [manager for manager in managers if manager.is_alive()]
