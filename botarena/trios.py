"""Which trios the bot arena seats next: a pure function of who is free, how many games each
entrant has been seated at, and how often each trio has met.

An account is seated at most once per call (an account plays one arena game at a time); the
site's levels are never busy and may sit at several tables. Every trio holds at least one
account. The entrant with the fewest games anchors each table (games stay balanced); its two
partners come from those whose games are within one of the fewest among the others (the
balance window), and among those the trio that has met least is chosen, then the pair
repeats fewest, then the fewest games, then the names (so the choice is reproducible). With
many bots, only the ``WIDEST`` partners of fewest games (then met least by the anchor) are
weighed: a table is chosen among 276 pairs, not among tens of thousands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations

WINDOW = 1  # games above the fewest that a partner may have
WIDEST = 24  # partners weighed at most (the fewest games, then the anchor met least, first)


@dataclass(frozen=True)
class Candidate:
    key: str  # an entrant's name for pairing: "u<user id>" or a level ("easy")
    is_account: bool
    games: int  # arena games seated at so far


def trio_key(keys: Iterable[str]) -> str:
    """One name per trio, whatever the order: the keys sorted, joined by "|"."""
    return "|".join(sorted(keys))


def pair_counts(trio_counts: Mapping[str, int]) -> dict[frozenset, int]:
    """How often each two entrants met, from the trios' counts."""
    pairs: dict[frozenset, int] = {}
    for trio, times in trio_counts.items():
        for pair in combinations(trio.split("|"), 2):
            pairs[frozenset(pair)] = pairs.get(frozenset(pair), 0) + times
    return pairs


def choose_trios(
    candidates: Iterable[Candidate], trio_counts: Mapping[str, int], slots: int
) -> list[tuple[str, str, str]]:
    """Up to ``slots`` trios among ``candidates`` (free accounts and the levels), each as
    (anchor, partner, partner)."""
    games = {c.key: c.games for c in candidates}
    accounts = {c.key for c in candidates if c.is_account}
    levels = {c.key for c in candidates if not c.is_account}
    met = dict(trio_counts)
    pairs = pair_counts(met)
    chosen: list[tuple[str, str, str]] = []
    while len(chosen) < slots and accounts:
        anchor = min(accounts, key=lambda k: (games[k], k))
        pool = sorted((accounts - {anchor}) | levels, key=lambda k: (games[k], k))
        if len(pool) < 2:
            break
        ceiling = games[pool[1]] + WINDOW
        window = sorted(
            (k for k in pool if games[k] <= ceiling),
            key=lambda k, anchor=anchor: (games[k], pairs.get(frozenset((anchor, k)), 0), k),
        )[:WIDEST]

        def cost(pair, anchor=anchor):
            p, q = pair
            return (
                met.get(trio_key((anchor, p, q)), 0),
                sum(pairs.get(frozenset(two), 0) for two in ((anchor, p), (anchor, q), (p, q))),
                games[p] + games[q],
                pair,
            )

        p, q = min(combinations(window, 2), key=cost)
        trio = (anchor, p, q)
        chosen.append(trio)
        key = trio_key(trio)
        met[key] = met.get(key, 0) + 1
        for two in combinations(trio, 2):
            pairs[frozenset(two)] = pairs.get(frozenset(two), 0) + 1
        for k in trio:
            games[k] += 1
        accounts -= set(trio)
    return chosen
