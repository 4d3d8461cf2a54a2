"""Swiss rounds without repeated trios (docs/tournaments.md, "Swiss"): the tables of a
round are the standings cut in threes; a table whose three people already played together
in an earlier round swaps one of them with someone further down, greedily, table by table
from the top. The swap chosen is the one between people of the nearest points (so people
stay within their score group where it can be done), then the nearest table; a swap that
would make either table a repeat is never taken. When no swap helps, the repeat stays.

Byes are spread: when the number of people is not a multiple of three, the one or two left
over sit at a table filled by bots (a bye). They are chosen before the tables are cut: the
people with the fewest byes so far, and among those the lowest in the standings; so nobody
has a second bye before everyone present has had one (after any round, byes differ by at
most one). The people at the bye table are kept out of the swaps above.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

T = TypeVar("T")


def played_trios(seatings: Iterable[tuple[int, Hashable]]) -> set[frozenset]:
    """The sets of people who sat together, from (game, person) pairs (bots left out)."""
    tables: dict[int, set] = {}
    for game, person in seatings:
        tables.setdefault(game, set()).add(person)
    return {frozenset(people) for people in tables.values() if len(people) == 3}


def avoid_repeats(
    groups: list[list[T]],
    played: set[frozenset],
    *,
    person: Callable[[T], Hashable],
    points: Callable[[T], int],
) -> list[list[T]]:
    """``groups`` (tables in standings order) with repeated trios broken up where possible."""
    groups = [list(group) for group in groups]

    def repeat(group: list[T]) -> bool:
        return len(group) == 3 and frozenset(map(person, group)) in played

    for i, group in enumerate(groups):
        if not repeat(group):
            continue
        best = None
        for j in range(i + 1, len(groups)):
            for a, mine in enumerate(group):
                for b, theirs in enumerate(groups[j]):
                    here = [*group[:a], theirs, *group[a + 1 :]]
                    there = [*groups[j][:b], mine, *groups[j][b + 1 :]]
                    if repeat(here) or repeat(there):
                        continue
                    cost = (abs(points(mine) - points(theirs)), j - i, b, -a)
                    if best is None or cost < best[0]:
                        best = (cost, j, here, there)
        if best is not None:
            _, j, groups[i], groups[j] = best
    return groups


def bye_takers(standing: list[T], *, byes: Callable[[T], int]) -> list[T]:
    """The ``len(standing) % 3`` people (``standing`` best first) who sit at the round's
    table filled by bots: the fewest byes so far, then the lowest in the standings."""
    bottom_up = sorted(reversed(range(len(standing))), key=lambda i: byes(standing[i]))
    chosen = set(bottom_up[: len(standing) % 3])  # a stable sort: the lowest among equals
    return [one for i, one in enumerate(standing) if i in chosen]


def swiss_round(
    standing: list[T],
    played: set[frozenset],
    *,
    person: Callable[[T], Hashable],
    points: Callable[[T], int],
    byes: Callable[[T], int],
) -> list[list[T]]:
    """A round's tables from the standings (best first): the bye table's people chosen
    first (``bye_takers``), the others cut in threes with repeated trios broken up
    (``avoid_repeats``); the bye table, if any, last."""
    takers = bye_takers(standing, byes=byes)  # one or two people
    rest = [one for one in standing if all(one is not taker for taker in takers)]
    tables = [rest[i : i + 3] for i in range(0, len(rest), 3)]
    tables = avoid_repeats(tables, played, person=person, points=points)
    return [*tables, takers] if takers else tables
