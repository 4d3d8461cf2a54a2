"""Twice the tables on two servers against the tables on one (issue 31's last target: the
p99 of 200 tables on two Daphnes under twice that of 100 on one), run in pairs.

Each run starts on a database of its own, made afresh and migrated: on a database reused from
run to run, the first seconds of the next run were spent starting the analysis of the
earlier runs' games, and the first 10 s of a 200-table run had a p99 of 120 to 177 ms
against 25 ms on a fresh one (docs/benchmarks.md, twenty-second sitting).

A fresh database is not an empty one: each is given a past first (``history`` finished games,
seeded by ``seed_scale`` with their tricks, plays and ratings, then analysed). On empty tables
PostgreSQL plans the site's statements for empty tables, and where autovacuum is off (our
machines) or has not yet come round, those plans stay: the tricks of the run were then read by
sequential scans that grew with every card, and a 200-table run's PostgreSQL CPU climbed from
0.3 to 0.9 of a core in its minute (docs/benchmarks.md, twenty-sixth sitting).
"""

from __future__ import annotations

import contextlib
import statistics
import subprocess
import sys
from pathlib import Path

import psycopg
from django.conf import settings

from lab.benchmarks.baseline import fresh_migrated, run_bench, vacuumed
from lab.benchmarks.cpus import cpus_for

HISTORY = 2000  # past games in each fresh database (``--history``)
HISTORY_PEOPLE = 300  # the past's players (none of them at the run's tables)


def scale_pairs(
    *,
    tables: int,
    pairs: int,
    seconds: float,
    ramp: float,
    think_spread: float,
    write,
    history: int = HISTORY,
    cpus_per_server: int | None = None,
) -> dict:
    """``pairs`` times: ``2 * tables`` tables on two servers, then ``tables`` on one, each
    on a database with ``history`` past games; each run's figures, each pair's p99 ratio,
    their median and the ratio of the medians. With ``cpus_per_server``, each side runs on
    that many CPUs per server (``lab.benchmarks.cpus``)."""
    if pairs < 1:
        raise ValueError("--pairs must be at least 1")
    if history < 0:
        raise ValueError("--history is a number of games, 0 or more")
    cpus = {
        servers: cpus_for(servers, cpus_per_server) if cpus_per_server else None
        for servers in (1, 2)
    }
    directory = Path(settings.BASE_DIR)
    database = f"{settings.DATABASES['default']['NAME']}_scale"
    common = ["--mode", "realistic", "--seconds", str(seconds), "--ramp", str(ramp)]
    common += ["--think-spread", str(think_spread)]
    runs: dict[str, list[dict]] = {"two": [], "one": []}
    for number in range(pairs):
        for side, servers in (("two", 2), ("one", 1)):
            env = fresh_migrated(directory, database)
            seeded(directory, env, history)
            vacuumed(env["DATABASE_URL"])
            checkpointed(env["DATABASE_URL"])
            args = ["--tables", str(tables * servers), "--servers", str(servers), *common]
            if cpus[servers] is not None:  # the site's worker pools sized as on such a machine
                env = {**env, "COINS_THINKING_PROCESSES": str(len(cpus[servers]))}
            run = run_bench(directory, env, args, cpus=cpus[servers])
            run["cpus"] = sorted(cpus[servers]) if cpus[servers] else None
            runs[side].append(run)
            write(
                f"pair {number + 1}: {tables * servers} tables on {servers} server(s): "
                f"{run['human_moves_per_second']} person moves/s, p50 "
                f"{run['latency_ms']['p50']} ms, p99 {run['latency_ms']['p99']} ms, "
                f"errors {run['errors']}, stalled {len(run['stalled_tables'])}; "
                f"load {run['load_mean']}" + (f"; CPUs {run['cpus']}" if run["cpus"] else "")
            )
    return {"tables": tables, "runs": runs, **pair_figures(runs)}


def seeded(directory: Path, env: dict, games: int) -> None:
    """Give the fresh database ``games`` finished games of a past (the same ones each time:
    a fixed seed), rated, so that it is planned and timed as a site that has been played on."""
    if not games:
        return
    command = [sys.executable, "manage.py", "seed_scale", "--games", str(games)]
    command += ["--people", str(HISTORY_PEOPLE), "--seed", "31", "--prefix", "past", "-v", "0"]
    done = subprocess.run(command, cwd=directory, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"seed_scale failed:\n{done.stderr[-3000:]}")


def checkpointed(database_url: str) -> None:
    """Write the fresh database's pages out before the run (``CHECKPOINT``), so that no run
    pays for its migration's: as the pairs of the twentieth sitting were run. A role that
    may not ask for one (not a superuser or ``pg_checkpoint``) runs without."""
    with (
        psycopg.connect(database_url, autocommit=True) as connection,
        contextlib.suppress(psycopg.errors.InsufficientPrivilege),
    ):
        connection.execute("CHECKPOINT")


def pair_figures(runs: dict[str, list[dict]]) -> dict:
    """Each pair's p99 ratio (two servers / one), the median ratio, and the ratio of the
    medians of each side's p99."""
    p99 = {side: [run["latency_ms"]["p99"] for run in done] for side, done in runs.items()}
    ratios = [round(two / one, 2) for two, one in zip(p99["two"], p99["one"], strict=True)]
    medians = {side: round(statistics.median(values), 2) for side, values in p99.items()}
    return {
        "p99_ratios": ratios,
        "median_ratio": round(statistics.median(ratios), 2),
        "p99_medians": medians,
        "ratio_of_medians": round(medians["two"] / medians["one"], 2),
    }
