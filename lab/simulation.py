"""Bot-only games without a database: the evaluation harness and the engine benchmark.

Deal ``d`` of a run with seed ``S`` always uses the same decks and bot seeds, so a run is
reproducible from its seed, and ``rotate`` replays every deal under each distinct seating of
the bots so that the luck of the deal cancels out.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import permutations

from games.engine.bots import Budget, make_bot
from games.engine.state import GameState


def seatings(bots: tuple[str, ...], rotate: bool) -> list[tuple[str, ...]]:
    """Return the seatings to play each deal under: the given one, or every distinct one."""
    if not rotate:
        return [bots]
    return list(dict.fromkeys(permutations(bots)))


def wilson_interval(wins: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval for a win rate."""
    if trials == 0:
        return (0.0, 1.0)
    rate = wins / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def play_game(
    seating: tuple[str, ...],
    *,
    deal_seed: str,
    bot_seed: str,
    target: int,
    budget: Budget | None = None,
) -> tuple[GameState, int]:
    """Play one game between bots to the end; return the final state and cards played."""
    bots = [make_bot(name, seed=f"{bot_seed}/{seat}") for seat, name in enumerate(seating)]
    state = GameState(target, seed=deal_seed)
    plays = 0
    while state.winner is None:
        seat = state.to_play
        state.play(seat, bots[seat].choose(state.view_for(seat), budget))
        plays += 1
    return state, plays


@dataclass
class BotTally:
    seat_games: int = 0  # games times the seats this bot held in them
    wins: int = 0

    def as_dict(self) -> dict:
        low, high = wilson_interval(self.wins, self.seat_games)
        rate = self.wins / self.seat_games if self.seat_games else 0.0
        return {
            "seat_games": self.seat_games,
            "wins": self.wins,
            "win_rate": round(rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
        }


@dataclass
class Summary:
    seed: str
    target: int
    deals: int = 0
    games: int = 0
    plays: int = 0
    seconds: float = 0.0
    bots: dict[str, BotTally] = field(default_factory=dict)
    seat_wins: list[int] = field(default_factory=lambda: [0, 0, 0])

    def add(self, seating: tuple[str, ...], state: GameState, plays: int, seconds: float):
        self.games += 1
        self.plays += plays
        self.seconds += seconds
        for name in seating:
            self.bots.setdefault(name, BotTally()).seat_games += 1
        self.bots[seating[state.winner]].wins += 1
        self.seat_wins[state.winner] += 1

    def as_dict(self) -> dict:
        return {
            "games": self.games,
            "deals": self.deals,
            "plays": self.plays,
            "seconds": round(self.seconds, 4),
            "plays_per_second": round(self.plays / self.seconds) if self.seconds else 0,
            "seed": self.seed,
            "target": self.target,
            "bots": {name: tally.as_dict() for name, tally in self.bots.items()},
            "seat_wins": self.seat_wins,
        }


@dataclass(frozen=True)
class PlayedGame:
    number: int
    seating: tuple[str, ...]
    state: GameState


def simulate(
    *,
    games: int,
    seed: str,
    target: int = 10,
    bots: tuple[str, ...] = ("random",) * 3,
    rotate: bool = False,
    budget: Budget | None = None,
    on_game: Callable[[PlayedGame, Summary], None] | None = None,
) -> Summary:
    """Play ``games`` games (rounded up to whole rotations) and tally who won."""
    orders = seatings(tuple(bots), rotate)
    summary = Summary(seed=seed, target=target)
    summary.deals = math.ceil(games / len(orders))
    for number, deal_number, k, seating in _schedule(summary.deals, orders):
        started = time.perf_counter()
        state, plays = play_game(
            seating,
            deal_seed=f"{seed}/deal/{deal_number}",
            bot_seed=f"{seed}/deal/{deal_number}/seating/{k}",
            target=target,
            budget=budget,
        )
        summary.add(seating, state, plays, time.perf_counter() - started)
        if on_game:
            on_game(PlayedGame(number, seating, state), summary)
    return summary


def _schedule(deals: int, orders: list[tuple[str, ...]]) -> Iterator[tuple[int, int, int, tuple]]:
    number = 0
    for deal_number in range(1, deals + 1):
        for k, seating in enumerate(orders):
            number += 1
            yield number, deal_number, k, seating
