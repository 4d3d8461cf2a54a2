"""The generator of the race table (`games/engine/bots/data/race_table.py`, read by
`games/engine/bots/values/race.py`): each player's chance to win the game from the end of a
hand, by how far each still is from the target and who leads the next hand.

``build_table`` (``manage.py race_table`` writes the module again, exactly):

* many hands are played out from random deals by the play-out policies (each seat a careful
  or a look-ahead player at random), and the order in which each seat's points come in is
  kept;
* the chance of each seat winning from distances ``(a, b, c)`` to the target (seat order
  from the next hand's leader) is the share of those hands in which it reaches its distance
  first, plus, for the hands in which nobody does, the chance from where that hand ends
  (dynamic programming by the total distance, which falls by 12 a hand).
"""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

from games.engine.bots.data import race_table as committed
from games.engine.bots.policies import CAREFUL, LOOKAHEAD
from games.engine.tricks import TRICK_POINTS, TRICK_WINNER

from .fingerprint import fingerprint as fingerprint_of

MAX_DISTANCE = 20  # distances 1..20: every position of targets up to 20
HANDS = 10000  # sampled hands
SEED = "race-table-1"
NEVER = 99
TABLE_PATH = Path(committed.__file__)  # where ``manage.py race_table`` writes by default


def sample_hand(rng: random.Random) -> list[tuple[int, int]]:
    """One hand from a random deal, seats by their order from the leader (0 leads); return
    ``(winner, points)`` per trick."""
    deck = list(range(48))
    rng.shuffle(deck)
    hands = [deck[0:16], deck[16:32], deck[32:48]]
    models = [LOOKAHEAD if rng.random() < 0.5 else CAREFUL for _ in range(3)]
    scores = [0, 0, 0]
    target = 99  # far: the policies play for points
    leader = 0
    tricks = []
    for _ in range(16):
        trick: list[int] = []
        for position in range(3):
            seat = (leader + position) % 3
            card = models[seat].card(hands[seat], trick, leader, seat, scores, target)
            hands[seat].remove(card)
            trick.append(card)
        index = (trick[0] * 48 + trick[1]) * 48 + trick[2]
        leader = (leader + TRICK_WINNER[index]) % 3
        points = TRICK_POINTS[index]
        scores[leader] += points
        tricks.append((leader, points))
    return tricks


def build_table(hands: int = HANDS, seed: str = SEED, max_distance: int = MAX_DISTANCE):
    """Return ``{(a, b, c): (p_a, p_b, p_c)}`` for distances 1..max_distance, seats in order
    from the next hand's leader, chances rounded to 4 places."""
    rng = random.Random(seed)
    samples = []  # per hand: reach[seat][d] trick number, final points, last winner
    for _ in range(hands):
        tricks = sample_hand(rng)
        reach = [[NEVER] * (max_distance + 1) for _ in range(3)]
        totals = [0, 0, 0]
        for number, (winner, points) in enumerate(tricks):
            if points:
                before = totals[winner]
                totals[winner] += points
                for d in range(before + 1, min(totals[winner], max_distance) + 1):
                    reach[winner][d] = number
        samples.append((reach[0], reach[1], reach[2], tuple(totals), tricks[-1][0]))
    table = {}
    distances = range(1, max_distance + 1)
    states = sorted(((a, b, c) for a in distances for b in distances for c in distances), key=sum)
    for a, b, c in states:
        wins = [0.0, 0.0, 0.0]
        dist = (a, b, c)
        for r0, r1, r2, totals, last in samples:
            t0, t1, t2 = r0[a], r1[b], r2[c]
            if t0 < NEVER or t1 < NEVER or t2 < NEVER:
                if t0 < t1 and t0 < t2:
                    wins[0] += 1
                elif t1 < t2:
                    wins[1] += 1
                else:
                    wins[2] += 1
                continue
            rest = [dist[s] - totals[s] for s in range(3)]
            nxt = table[(rest[last], rest[(last + 1) % 3], rest[(last + 2) % 3])]
            for k in range(3):  # nxt[k] is the seat k after the new leader
                wins[(last + k) % 3] += nxt[k]
        n = len(samples)
        table[(a, b, c)] = tuple(w / n for w in wins)
    return {key: tuple(round(p, 4) for p in value) for key, value in table.items()}


def fingerprint(hands: int = HANDS, seed: str = SEED, max_distance: int = MAX_DISTANCE) -> str:
    """The fingerprint of the table these settings write: this generator's source, the
    settings, and a small table built by the same code (the play-out policies it samples
    with, the trick tables, the dynamic programming)."""
    sample = build_table(hands=300, seed="fingerprint", max_distance=4)
    settings = {"hands": hands, "seed": seed, "max_distance": max_distance}
    return fingerprint_of("race-table", sys.modules[__name__], settings, sorted(sample.items()))


def render_module(table, hands: int, seed: str, max_distance: int) -> str:
    """The source of ``race_table.py``: a flat tuple of the chances, 3 per state."""
    values = []
    distances = range(1, max_distance + 1)
    for a in distances:
        for b in distances:
            for c in distances:
                values.extend(f"{p:.4f}" for p in table[(a, b, c)])
    body = textwrap.wrap(", ".join(values), 92)
    lines = [
        '"""Generated by ``manage.py race_table`` (`lab/race_table.py`): do not edit."""',
        "",
        "# of the generator, its settings and a sample of its inputs (lab/fingerprint.py)",
        f"FINGERPRINT = {fingerprint(hands, seed, max_distance)!r}",
        f"MAX_DISTANCE = {max_distance}",
        f"HANDS = {hands}",
        f"SEED = {seed!r}",
        "# CHANCES[3 * (((a - 1) * D + b - 1) * D + c - 1) + k], D = MAX_DISTANCE: the chance",
        "# that seat k (0 leads the next hand, 1 and 2 after it) wins the game from distances",
        "# a, b, c to the target.",
        "CHANCES = (",
        *(f"    {line}" for line in body),
        ")",
    ]
    return "\n".join(lines) + "\n"


def committed_table() -> dict:
    """The committed table as ``build_table`` returns it (to check it renders back)."""
    d, chances = committed.MAX_DISTANCE, committed.CHANCES
    return {
        (a, b, c): tuple(chances[3 * (((a - 1) * d + b - 1) * d + c - 1) + k] for k in range(3))
        for a in range(1, d + 1)
        for b in range(1, d + 1)
        for c in range(1, d + 1)
    }
