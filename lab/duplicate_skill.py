"""How well one game tells a stronger player from a weaker one: on the same deal (duplicate,
compared by matchpoints) or on different deals (the game result alone).

Two "people", a stronger and a weaker bot, each play seat 0 of the same deals against the
same two opponents, seeded by the deal (as the duplicate's bots are). Each comparison is
scored as the matchpoints score it (``duplicate.scoring.versus``: 1, 0.5 or 0 for the
stronger). Run with ``python -m lab.duplicate_skill [deals] [stronger] [weaker] [opponent]``
(2,000 deals take about 7 s); the figures are in docs/duplicate.md.
"""

from __future__ import annotations

import json
import random
import sys

from duplicate.scoring import Result, versus
from lab.simulation import play_game


def results(person: str, opponent: str, deals: int, target: int) -> list[Result]:
    """``person``'s result on each deal, in seat 0 against two ``opponent`` bots."""
    out = []
    for deal in range(deals):
        state, _plays = play_game(
            (person, opponent, opponent),
            deal_seed=f"duplicate-skill/{deal}",
            bot_seed=f"duplicate-skill/{deal}/bots",
            target=target,
        )
        out.append(Result(state.scores[0], state.winner == 0))
    return out


def share_right(stronger: list[Result], weaker: list[Result], games: int, shift: int) -> float:
    """How often the stronger comes out ahead over ``games`` games (the sum of comparisons;
    a tie counts half), comparing deal ``d`` with deal ``d + shift`` (0: the same deal)."""
    n = len(stronger)
    scores = [versus(stronger[d], weaker[(d + shift) % n]) - 0.5 for d in range(n)]
    rng = random.Random(7)
    right, trials = 0.0, 4000
    for _ in range(trials):
        total = sum(rng.choice(scores) for _ in range(games))
        right += 1.0 if total > 0 else 0.5 if total == 0 else 0.0
    return right / trials


def main(deals=300, stronger="careful", weaker="heuristic", opponent="careful", target=10):
    strong, weak = (results(p, opponent, deals, target) for p in (stronger, weaker))
    figures = {"deals": deals, "stronger": stronger, "weaker": weaker, "opponent": opponent}
    for games in (1, 3, 30):
        figures[f"{games} games"] = {
            "same deal (duplicate)": round(share_right(strong, weak, games, 0), 3),
            "different deals (game result)": round(share_right(strong, weak, games, 1), 3),
        }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 300, *args[1:4])
