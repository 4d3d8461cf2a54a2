"""This commit against another, side by side: ``bench_tables --baseline REV``.

Figures taken on different days or machines do not compare (a busier machine moves every
figure), so both commits run here, one after the other, in alternation (ours, theirs, ours,
theirs...), each with its own ``bench_tables`` and its own Daphne. The other commit is
unpacked with ``git archive`` into a temporary directory and served from there, on a
database of its own migrated by its own code, with the same Python, Redis and settings.
The ratios of the medians are the figure a change to the table path reports.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.conf import settings

from lab.benchmarks.cpus import pinned_to, services_on

FIGURES = {  # label: how to read it from a run's JSON
    "person moves/s": lambda run: run["human_moves_per_second"],
    "latency p50 ms": lambda run: run["latency_ms"]["p50"],
    "latency p99 ms": lambda run: run["latency_ms"]["p99"],
    "server CPU ms per person's move": lambda run: run["server_cpu_ms_per_human_move"],
    "statements per person's move": lambda run: run.get("queries_per_human_move_all_in"),
}
RATIOS = ("server CPU ms per person's move", "latency p50 ms", "latency p99 ms")


def database_url_named(name: str) -> str:
    """This run's ``DATABASE_URL`` with another database name."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{name}"))


def fresh_database(name: str) -> None:
    """Drop and create ``name`` beside the run's own database (a baseline's schema is its own)."""
    admin = database_url_named("postgres")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def fresh_migrated(directory: Path, database: str) -> dict:
    """The environment of a side whose code is in ``directory``, on ``database`` made afresh
    and migrated by that code."""
    fresh_database(database)
    env = {
        **os.environ,
        "DATABASE_URL": database_url_named(database),
        "PYTHONPATH": str(directory),
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=directory,
        env=env,
        check=True,
    )
    return env


def vacuumed(database_url: str) -> None:
    """``VACUUM (ANALYZE)`` the database before a run, as autovacuum keeps a site's tables:
    a run updates a game's row with every card, and where autovacuum is off (our machines'
    PostgreSQL) the dead rows of the runs before piled up (326,501 beside 13,357 games)."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute("VACUUM (ANALYZE)")


def retire_games(database_url: str) -> int:
    """End the games a run left running, in the database at ``database_url``: otherwise the
    runners of the next run would serve them (a look at each idle table ten minutes on, an
    abandoned game to rate) and charge it to that run. Works on any commit's schema."""
    with psycopg.connect(database_url, autocommit=True) as connection:
        has_due_at = connection.execute(
            "SELECT 1 FROM information_schema.columns "
            "WHERE table_name = 'games_game' AND column_name = 'due_at'"
        ).fetchone()
        due = ", due_at = NULL" if has_due_at else ""
        return connection.execute(
            f"UPDATE games_game SET status = 'abandoned'{due} "
            "WHERE status IN ('waiting', 'in_progress')"
        ).rowcount


def unpack(rev: str, into: Path) -> str:
    """Unpack commit ``rev`` of this repository into ``into``; return its full hash."""
    root = Path(settings.BASE_DIR)
    full = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=root,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    archive = subprocess.run(["git", "archive", full], cwd=root, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return full


class LoadSampler:
    """The machine's 1-minute load average, sampled every 5 s while a run goes."""

    def __init__(self):
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(5):
            self.samples.append(os.getloadavg()[0])

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    @property
    def mean(self) -> float | None:
        return round(statistics.fmean(self.samples), 2) if self.samples else None


# ``bench_tables`` with each person's thinking spread (``--think-spread``), given the same way
# to both commits, whether or not one knows the option: its client's thinking, a sleep of
# exactly ``--think`` seconds, is drawn evenly from think * (1 -/+ spread) instead. Run with
# ``python -c`` in the commit's directory: argv is spread, think, then bench_tables' own.
SPREAD_THINKING = """
import asyncio, importlib, os, random, sys, types
import django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coins_site.settings")
django.setup()
spread, think = float(sys.argv[1]), float(sys.argv[2])
here = os.getcwd()
for name in ("lab.benchmarks.tables", "games.benchmarks.tables"):  # where it is, where it was
    if os.path.exists(os.path.join(here, *name.split(".")) + ".py"):
        client = importlib.import_module(name)
        break
else:
    sys.exit(f"No table benchmark client in {here}")
async def sleep(delay, *rest):
    if delay == think:
        delay = think * random.uniform(1 - spread, 1 + spread)
    return await asyncio.sleep(delay, *rest)
client.asyncio = types.SimpleNamespace(**{**vars(asyncio), "sleep": sleep})
from django.core.management import execute_from_command_line
execute_from_command_line(["manage.py", "bench_tables", *sys.argv[3:]])
"""
THINK_SECONDS = 1.0  # what ``--think`` defaults to in every commit


def bench_command(args: list[str], spread: float = 0.0) -> list[str]:
    """The command line of a ``bench_tables`` run, with its people's thinking spread."""
    if not spread:
        return [sys.executable, "manage.py", "bench_tables", *args]
    return [sys.executable, "-c", SPREAD_THINKING, str(spread), str(THINK_SECONDS), *args]


def run_bench(
    directory: Path, env: dict, args: list[str], spread: float = 0.0, cpus: set[int] | None = None
) -> dict:
    """One ``bench_tables`` run of the code in ``directory``: its JSON figures, with the
    machine's load while it ran; with ``cpus``, the run and the services it uses are kept to
    those CPUs (``lab.benchmarks.cpus``)."""
    with LoadSampler() as load, services_on(cpus):
        done = subprocess.run(
            bench_command(args, spread),
            cwd=directory,
            env=env,
            capture_output=True,
            text=True,
            preexec_fn=pinned_to(cpus),
        )
    if done.returncode:
        raise RuntimeError(f"bench_tables in {directory} failed:\n{done.stderr[-3000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["load_mean"] = load.mean
    figures["think_spread"] = spread  # given by ``SPREAD_THINKING``, whatever the commit says
    return figures


def median_of(runs: list[dict], figure: str) -> float | None:
    values = [v for v in (FIGURES[figure](run) for run in runs) if v is not None]
    return round(statistics.median(values), 2) if values else None


def compare(*, rev: str, rounds: int, args: list[str], write, spread: float = 0.0) -> dict:
    """Run this commit and ``rev`` ``rounds`` times each, alternating, and report both and
    the ratios (ours / theirs) of the medians; ``spread``: the people's thinking spread."""
    if rounds < 1:
        raise ValueError("--rounds must be at least 1")
    ours_dir = Path(settings.BASE_DIR)
    name = settings.DATABASES["default"]["NAME"]
    with tempfile.TemporaryDirectory(prefix="coins-baseline-") as tmp:
        theirs_dir = Path(tmp)
        full = unpack(rev, theirs_dir)
        # Each side on a database of its own, made afresh: ours had run on the developer's,
        # bloated by every earlier run, against theirs new (docs/benchmarks.md, twelfth
        # sitting).
        ours_env = fresh_migrated(ours_dir, f"{name}_ours")
        theirs_env = fresh_migrated(theirs_dir, f"{name}_baseline")
        runs: dict[str, list[dict]] = {"ours": [], "theirs": []}
        for number in range(rounds):
            for side, directory, env in (
                ("ours", ours_dir, ours_env),
                ("theirs", theirs_dir, theirs_env),
            ):
                started = time.monotonic()
                vacuumed(env["DATABASE_URL"])
                # Ours starts its games as the older commits' client does (from the
                # benchmark's process), so both sides' servers do the same work.
                side_args = [*args, "--quick-play", "direct"] if side == "ours" else args
                run = run_bench(directory, env, side_args, spread)
                retire_games(env["DATABASE_URL"])
                runs[side].append(run)
                write(
                    f"round {number + 1} {side}: "
                    + ", ".join(f"{name} {FIGURES[name](run)}" for name in FIGURES)
                    + f"; load {run['load_mean']} ({time.monotonic() - started:.0f} s)"
                )
    medians = {
        side: {name: median_of(done, name) for name in FIGURES} for side, done in runs.items()
    }
    ratios = {
        name: round(medians["ours"][name] / medians["theirs"][name], 2)
        for name in RATIOS
        if medians["ours"][name] and medians["theirs"][name]
    }
    return {
        "baseline": full,
        "args": args,
        "think_spread": spread,
        "runs": runs,
        "medians": medians,
        "ratios": ratios,
    }
