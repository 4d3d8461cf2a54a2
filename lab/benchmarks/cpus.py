"""A benchmark run on part of the machine: its own processes and the services it talks to
(PostgreSQL, Redis) kept to some of the CPUs for the run, as if the machine had only those.

Issue 31's last target compares 200 tables on two servers with 100 on one. On a machine of
two CPUs, the one server's run has a CPU to spare for PostgreSQL, Redis and the benchmark's
own people, and the two servers' run has none: the ratio then measures the machine as much
as the servers. Given one CPU per server (``bench_tables --pairs N --cpus-per-server 1``),
each side runs on a machine of its size, and the ratio says whether the servers scale.
Linux only (``sched_setaffinity``); PostgreSQL's and Redis's processes must be ours to pin
(as root, or their own user)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

SERVICES = ("postgres", "redis-server")  # the names Linux gives their processes
PROC = Path("/proc")


def cpus_for(servers: int, per_server: int, available: set[int] | None = None) -> set[int]:
    """The first ``servers * per_server`` of the CPUs this process may use (``available``);
    an error when the machine has fewer."""
    if per_server < 1:
        raise ValueError("--cpus-per-server is a number of CPUs, 1 or more")
    have = sorted(os.sched_getaffinity(0) if available is None else available)
    wanted = servers * per_server
    if wanted > len(have):
        raise ValueError(
            f"{servers} server(s) at {per_server} CPU(s) each need {wanted} CPUs; "
            f"this machine gives {len(have)}"
        )
    return set(have[:wanted])


def service_tasks(proc: Path = PROC, names: tuple[str, ...] = SERVICES) -> list[int]:
    """Every thread of every process named in ``names`` (its ``comm``)."""
    tasks = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() not in names:
                continue
            tasks += [int(task.name) for task in (entry / "task").iterdir()]
        except OSError:  # the process ended meanwhile
            continue
    return tasks


@contextlib.contextmanager
def services_on(cpus: set[int] | None, proc: Path = PROC):
    """For the block, PostgreSQL and Redis run on ``cpus`` only (the backends PostgreSQL
    starts meanwhile inherit it); after, each thread has its own CPUs back, and a thread new
    since then those its service had. ``None``: nothing is pinned."""
    if cpus is None:
        yield
        return
    before: dict[int, set[int]] = {}
    try:
        for task in service_tasks(proc):
            with contextlib.suppress(ProcessLookupError):
                own = os.sched_getaffinity(task)
                try:
                    os.sched_setaffinity(task, cpus)
                except PermissionError as error:
                    raise RuntimeError(
                        f"thread {task} of PostgreSQL or Redis is not ours to keep to CPUs "
                        f"{sorted(cpus)}: run as root or as the services' own user"
                    ) from error
                before[task] = own
        yield
    finally:
        everywhere = set().union(*before.values()) if before else os.sched_getaffinity(0)
        for task in service_tasks(proc):
            # a thread that was never ours to pin is left as it is
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.sched_setaffinity(task, before.get(task, everywhere))


def pinned_to(cpus: set[int] | None):
    """A ``preexec_fn`` that keeps a child process (and its own children) on ``cpus``."""
    if cpus is None:
        return None
    return lambda: os.sched_setaffinity(0, cpus)
