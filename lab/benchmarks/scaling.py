"""Twice the tables on two servers against the tables on one (issue 31's last target: the
p99 of 200 tables on two Daphnes under twice that of 100 on one), run in pairs.

Each run starts on a database of its own, made afresh and migrated: on a database reused from
run to run, the first seconds of the next run were spent starting the analysis of the
earlier runs' games, and the first 10 s of a 200-table run had a p99 of 120 to 177 ms
against 25 ms on a fresh one (docs/benchmarks.md, twenty-second sitting).
"""

from __future__ import annotations

import contextlib
import statistics
from pathlib import Path

import psycopg
from django.conf import settings

from lab.benchmarks.baseline import fresh_migrated, run_bench, vacuumed


def scale_pairs(
    *, tables: int, pairs: int, seconds: float, ramp: float, think_spread: float, write
) -> dict:
    """``pairs`` times: ``2 * tables`` tables on two servers, then ``tables`` on one; each
    run's figures, each pair's p99 ratio, their median and the ratio of the medians."""
    if pairs < 1:
        raise ValueError("--pairs must be at least 1")
    directory = Path(settings.BASE_DIR)
    database = f"{settings.DATABASES['default']['NAME']}_scale"
    common = ["--mode", "realistic", "--seconds", str(seconds), "--ramp", str(ramp)]
    common += ["--think-spread", str(think_spread)]
    runs: dict[str, list[dict]] = {"two": [], "one": []}
    for number in range(pairs):
        for side, servers in (("two", 2), ("one", 1)):
            env = fresh_migrated(directory, database)
            vacuumed(env["DATABASE_URL"])
            checkpointed(env["DATABASE_URL"])
            args = ["--tables", str(tables * servers), "--servers", str(servers), *common]
            run = run_bench(directory, env, args)
            runs[side].append(run)
            write(
                f"pair {number + 1}: {tables * servers} tables on {servers} server(s): "
                f"{run['human_moves_per_second']} person moves/s, p50 "
                f"{run['latency_ms']['p50']} ms, p99 {run['latency_ms']['p99']} ms, "
                f"errors {run['errors']}, stalled {len(run['stalled_tables'])}; "
                f"load {run['load_mean']}"
            )
    return {"tables": tables, "runs": runs, **pair_figures(runs)}


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
