"""Whether the machine has room for an analysis: the lane works only while the machine's
other work leaves most of its CPUs idle.

Analysis workers already run on Linux's idle class, yet two of them (one per server) kept
both cores of a two-core machine busy, and the tables' p99 doubled (97 against 52 ms with
200 tables on two servers; docs/benchmarks.md, thirteenth sitting). So the lane asks the
machine: the share of its CPU time that went to work at normal priority over the last
moment, read from Linux's ``/proc/stat``. Niced processes count in a column of their own
(``nice``), so the analyses themselves (niceness 15) and the hints (10) are left out of the
measure, whichever server runs them: every server on the machine reads the same figures and
pauses its analysis together.

Below that limit the tables may still be in play, and an analysis running all the while costs
them time even on the idle class: on a two-core virtual machine, 100 tables' p50 was 7.1 to
8.5 ms beside an analysis at work all the time, and 6.1 to 6.8 ms beside one working one
half-second in four (docs/benchmarks.md, seventeenth sitting). So the room has a second,
lower mark, ``quiet``: below it the analysis works all the time; between it and the limit
(people are playing) it works in slices, one moment in ``SLICE_EVERY``, and the machine's
cores idle in between. The slices are cut from the machine's monotonic clock, which every
process on it shares, so that the servers of one machine work their analyses in the same
moments and leave the same moments idle.

An analysis paused mid-game goes on from the card it stopped at; the lane keeps renewing its
lease meanwhile. Off Linux there is nothing to read, and the lane always has room.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

PROC_STAT = Path("/proc/stat")
SAMPLE_EVERY = 0.5  # seconds: the shortest moment a verdict is taken over
QUIET_SAMPLES = 4  # moments in a row below the limit before a paused analysis goes on: a
# machine near the limit went above and below it every moment or two, and the analysis ran
# in every lull
SLICE_EVERY = 4  # while the machine is between quiet and busy, the analysis works one moment
# in this many


def cpu_times(path: Path = PROC_STAT) -> tuple[int, int] | None:
    """The machine's CPU time so far, in ticks: (spent at normal priority, all). None where
    there is no ``/proc/stat``."""
    try:
        with path.open() as stat:
            first = stat.readline().split()
    except OSError:
        return None
    # cpu user nice system idle iowait irq softirq steal (guest time is inside user's)
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    normal = user + system + irq + softirq + steal
    return normal, normal + nice + idle + iowait


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The share (0..1) of the machine's CPU time between two readings spent at normal
    priority; 0 if no time passed."""
    total = after[1] - before[1]
    return (after[0] - before[0]) / total if total > 0 else 0.0


class Room:
    """The verdict of the last moments: is the machine's normal-priority work below ``limit``
    (a share of all its CPUs)? A busy moment takes the room away at once; it comes back
    after ``QUIET_SAMPLES`` quiet moments in a row. A limit of 1 or more never pauses; 0 or
    less never has room (a server that leaves the analyses to another machine). With room,
    the work goes on every moment once the work has stayed below ``quiet`` for
    ``QUIET_SAMPLES`` moments in a row, and one moment in ``SLICE_EVERY`` otherwise."""

    def __init__(
        self,
        limit: float,
        quiet: float = 0.0,
        read: Callable[[], tuple[int, int] | None] = cpu_times,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.limit, self.calm_below, self.read, self.clock = limit, quiet, read, clock
        self.last = read() if limit < 1 else None
        self.last_at = clock()
        self.roomy_moments = QUIET_SAMPLES  # in a row below the limit (none measured: room)
        self.calm_moments = QUIET_SAMPLES  # in a row below ``calm_below`` (none: calm)

    def has_room(self) -> bool:
        """The verdict, taken again when ``SAMPLE_EVERY`` has passed since the last one."""
        if self.limit <= 0:
            return False
        if self.last is not None and self.clock() - self.last_at >= SAMPLE_EVERY:
            now = self.read()
            if now is not None:
                share = busy_share(self.last, now)
                self.roomy_moments = self.roomy_moments + 1 if share < self.limit else 0
                self.calm_moments = self.calm_moments + 1 if share < self.calm_below else 0
                self.last, self.last_at = now, self.clock()
        return self.roomy_moments >= QUIET_SAMPLES

    def may_work(self) -> bool:
        """Whether a worker with a game in hand goes on this moment: with room, always on a
        calm machine, and in its slice of moments while people are playing."""
        if not self.has_room():
            return False
        moment = int(self.clock() / SAMPLE_EVERY)  # the same moment in every process
        return self.calm_moments >= QUIET_SAMPLES or moment % SLICE_EVERY == 0
