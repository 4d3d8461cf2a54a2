"""One builder for every duplicate table of results: a group of results of the same cards
(a day's game, an event's deal and seat) scored by matchpoints, and the standings over
several groups. The daily duplicate (``duplicate.selectors``) and the events
(``duplicate.event_selectors``) both read their results through it. Pure: no Django."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from .scoring import Result, matchpoints, percentages, places


@dataclass(kw_only=True)
class ScoredRow:
    """One finished result among those who held the same cards. ``key`` says whose it is
    in the standings (a person's id on a day, an entry's in an event)."""

    key: int
    player: str
    user_id: int | None  # None: a bot filling an event
    game_id: int
    points: int
    won: bool
    matchpoints: float = 0.0
    percent: float = 0.0
    place: int = 1

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass
class Standing:
    """One line of the standings: the average percentage over ``results`` finished."""

    key: int
    player: str
    user_id: int | None
    percent: float
    results: int
    place: int = 1

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


def rows_score(rows: list[ScoredRow]) -> list[ScoredRow]:
    """Give each row of one group its matchpoints, percentage and place against the others,
    and sort the group best first (then by name)."""
    plain = [Result(row.points, row.won) for row in rows]
    percents = percentages(plain)
    for row, points, percent, place in zip(
        rows, matchpoints(plain), percents, places(percents), strict=True
    ):
        row.matchpoints, row.percent, row.place = points, percent, place
    rows.sort(key=lambda row: (row.place, row.player))
    return rows


def standings_build(
    groups: Iterable[list[ScoredRow]], *, excluded: Collection[int] = ()
) -> list[Standing]:
    """Each one's average percentage over the groups they finished, best first; ties share
    a place (more results, then the name, order them). People whose id is in ``excluded``
    (staff kept them off) are left out, and the places are those of the people listed."""
    totals: dict[int, Standing] = {}
    for rows in groups:
        for row in rows:
            if row.user_id is not None and row.user_id in excluded:
                continue
            standing = totals.setdefault(
                row.key, Standing(row.key, row.player, row.user_id, 0.0, 0)
            )
            standing.percent += row.percent
            standing.results += 1
    table = list(totals.values())
    for standing in table:
        standing.percent /= standing.results
    for standing, place in zip(table, places([s.percent for s in table]), strict=True):
        standing.place = place
    table.sort(key=lambda s: (s.place, -s.results, s.player))
    return table
