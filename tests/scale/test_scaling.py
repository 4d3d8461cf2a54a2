"""``bench_tables --pairs``: twice the tables on two servers against the tables on one, each
run on a database made afresh (docs/benchmarks.md, twenty-second sitting)."""

import os
import subprocess
import threading
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from lab.benchmarks import cpus, scaling


def figures(p99: float) -> dict:
    return {
        "human_moves_per_second": 90.0,
        "latency_ms": {"p50": 5.0, "p99": p99},
        "errors": 0,
        "stalled_tables": [],
        "load_mean": 1.0,
    }


def test_each_pair_s_ratio_their_median_and_the_ratio_of_the_medians():
    runs = {"two": [figures(40.0), figures(90.0), figures(60.0)], "one": [figures(20.0)] * 3}
    assert scaling.pair_figures(runs) == {
        "p99_ratios": [2.0, 4.5, 3.0],
        "median_ratio": 3.0,
        "p99_medians": {"two": 60.0, "one": 20.0},
        "ratio_of_medians": 3.0,
    }


def test_every_run_starts_on_a_database_made_afresh(monkeypatch):
    done = []
    monkeypatch.setattr(
        scaling,
        "fresh_migrated",
        lambda directory, database: (
            done.append(("fresh", database)) or {"DATABASE_URL": f"postgres:///{database}"}
        ),
    )
    monkeypatch.setattr(
        scaling, "seeded", lambda directory, env, games: done.append(("seeded", games))
    )
    monkeypatch.setattr(scaling, "vacuumed", lambda url: done.append(("vacuumed", url)))
    monkeypatch.setattr(scaling, "checkpointed", lambda url: done.append(("checkpoint", url)))
    p99s = iter([50.0, 20.0, 30.0, 25.0])

    def run_bench(directory, env, args, cpus=None):
        assert cpus is None and "COINS_THINKING_PROCESSES" not in env  # the whole machine
        done.append(("run", args[:4]))
        return figures(next(p99s))

    monkeypatch.setattr(scaling, "run_bench", run_bench)
    written = []
    result = scaling.scale_pairs(
        tables=100, pairs=2, seconds=60, ramp=0, think_spread=0, write=written.append
    )
    database = done[0][1]
    assert database.endswith("_scale")
    url = f"postgres:///{database}"
    one_run = [("fresh", database), ("seeded", 2000), ("vacuumed", url), ("checkpoint", url)]
    two_servers = [*one_run, ("run", ["--tables", "200", "--servers", "2"])]
    one_server = [*one_run, ("run", ["--tables", "100", "--servers", "1"])]
    assert done == (two_servers + one_server) * 2
    assert result["p99_ratios"] == [2.5, 1.2] and result["median_ratio"] == 1.85
    assert len(written) == 4 and "200 tables on 2 server(s)" in written[0]


def test_pairs_run_their_own_servers():
    with pytest.raises(CommandError, match="--pairs runs its own servers"):
        call_command("bench_tables", "--pairs", "1", "--baseline", "HEAD")
    with pytest.raises(CommandError, match="--pairs runs its own servers"):
        call_command("bench_tables", "--pairs", "1", "--servers", "2")
    with pytest.raises(ValueError, match="at least 1"):
        scaling.scale_pairs(tables=1, pairs=0, seconds=1, ramp=0, think_spread=0, write=print)


def test_laps_are_only_for_a_run_of_this_commit_s_own_servers():
    # The figures that compare commits or server counts are taken without them: they cost.
    for other in (["--pairs", "1"], ["--baseline", "HEAD"], ["--url", "ws://127.0.0.1:1"]):
        with pytest.raises(CommandError, match="--laps is for a run"):
            call_command("bench_tables", "--laps", *other)


def test_each_fresh_database_is_given_the_same_past_by_the_site_s_own_seeder(monkeypatch):
    """A run on empty tables runs on plans made for empty tables (twenty-sixth sitting)."""
    calls = []

    def run(command, **kwargs):
        calls.append((command, kwargs))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(scaling.subprocess, "run", run)
    env = {"DATABASE_URL": "postgres:///coins_scale"}
    scaling.seeded(Path("/site"), env, 0)
    assert calls == []  # --history 0: no past
    scaling.seeded(Path("/site"), env, 2000)
    scaling.seeded(Path("/site"), env, 2000)
    (command, kwargs), again = calls
    assert command[1:5] == ["manage.py", "seed_scale", "--games", "2000"]
    assert "--seed" in command and again[0] == command  # the same past every time
    assert kwargs["cwd"] == Path("/site") and kwargs["env"] is env

    def fails(command, **kwargs):
        return subprocess.CompletedProcess(command, 1, "", "no database")

    monkeypatch.setattr(scaling.subprocess, "run", fails)
    with pytest.raises(RuntimeError, match="no database"):
        scaling.seeded(Path("/site"), env, 10)


def test_a_history_is_for_pairs_only_and_never_negative():
    with pytest.raises(CommandError, match="--history is for --pairs"):
        call_command("bench_tables", "--history", "10")
    with pytest.raises(ValueError, match="--history"):
        scaling.scale_pairs(
            tables=1, pairs=1, seconds=1, ramp=0, think_spread=0, write=print, history=-1
        )


def test_with_cpus_per_server_each_side_runs_on_a_machine_of_its_size(monkeypatch):
    fresh = {"DATABASE_URL": "postgres:///coins_scale"}
    monkeypatch.setattr(scaling, "fresh_migrated", lambda directory, database: fresh)
    for step in ("seeded", "vacuumed", "checkpointed"):
        monkeypatch.setattr(scaling, step, lambda *args: None)
    monkeypatch.setattr(
        scaling, "cpus_for", lambda servers, per: cpus.cpus_for(servers, per, {0, 1, 2, 3})
    )
    given = []

    def run_bench(directory, env, args, cpus=None):
        given.append((args[1], cpus, env.get("COINS_THINKING_PROCESSES")))
        return figures(30.0)

    monkeypatch.setattr(scaling, "run_bench", run_bench)
    written = []
    result = scaling.scale_pairs(
        tables=50,
        pairs=1,
        seconds=1,
        ramp=0,
        think_spread=0,
        write=written.append,
        cpus_per_server=2,
    )
    assert given == [("100", {0, 1, 2, 3}, "4"), ("50", {0, 1}, "2")]
    assert [run["cpus"] for run in result["runs"]["two"] + result["runs"]["one"]] == [
        [0, 1, 2, 3],
        [0, 1],
    ]
    assert written[1].endswith("CPUs [0, 1]")


def test_cpus_per_server_are_the_machine_s_first_and_never_more_than_it_has():
    assert cpus.cpus_for(1, 1, {2, 5}) == {2} and cpus.cpus_for(2, 1, {2, 5}) == {2, 5}
    with pytest.raises(ValueError, match="need 4 CPUs; this machine gives 2"):
        cpus.cpus_for(2, 2, {0, 1})
    with pytest.raises(ValueError, match="1 or more"):
        cpus.cpus_for(1, 0, {0, 1})
    with pytest.raises(CommandError, match="--cpus-per-server is for --pairs"):
        call_command("bench_tables", "--cpus-per-server", "1")


def fake_service(proc, pid: int, name: str, tasks: list[int]) -> None:
    (proc / str(pid) / "task").mkdir(parents=True)
    (proc / str(pid) / "comm").write_text(name + "\n")
    for task in tasks:
        (proc / str(pid) / "task" / str(task)).mkdir()


def test_services_are_kept_to_the_cpus_for_the_run_then_given_back_their_own(tmp_path):
    """A thread of ours stands for PostgreSQL's backend: pinned in the block, then back."""
    here = threading.get_native_id()
    fake_service(tmp_path, 1, "postgres", [here])
    fake_service(tmp_path, 2, "bash", [4_000_000])  # not a service: never touched
    (tmp_path / "self").mkdir()
    assert cpus.service_tasks(tmp_path) == [here]
    before = os.sched_getaffinity(here)
    one = {min(before)}
    with cpus.services_on(one, tmp_path):
        assert os.sched_getaffinity(here) == one
    assert os.sched_getaffinity(here) == before
    with cpus.services_on(None, tmp_path):  # no CPUs asked: nothing pinned
        assert os.sched_getaffinity(here) == before


def test_a_service_not_ours_to_pin_is_a_clear_error_and_nothing_stays_pinned(tmp_path, monkeypatch):
    here = threading.get_native_id()
    fake_service(tmp_path, 1, "postgres", [here])
    fake_service(tmp_path, 2, "redis-server", [here + 1])
    before = os.sched_getaffinity(here)
    real, real_get = os.sched_setaffinity, os.sched_getaffinity

    def refuses_the_second(task, mask):
        if task == here + 1:
            raise PermissionError("not permitted")
        real(task, mask)

    monkeypatch.setattr(cpus.os, "sched_setaffinity", refuses_the_second)
    monkeypatch.setattr(
        cpus.os, "sched_getaffinity", lambda task: before if task == here + 1 else real_get(task)
    )
    refused = pytest.raises(RuntimeError, match="not ours to keep to CPUs")
    with refused, cpus.services_on({min(before)}, tmp_path):
        raise AssertionError("the block must not run")
    assert os.sched_getaffinity(here) == before  # the first one was given its CPUs back
