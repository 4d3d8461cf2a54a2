"""The strength ladder: round robins of bot lineups, played in parallel, rated with OpenSkill.

Every lineup of three different bots from the pool plays the same deals under each of its
six seatings, so the luck of the deal cancels out. Each game is a three-player match ranked
as the site ranks its rated games (the winner first, the others by points); the ratings say
how strong each bot is against the whole pool, never against one opponent alone.

Games run in worker processes (one per core by default); results are rated in the order
the games were scheduled, so a run is reproducible from its seed.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations

from openskill.models import PlackettLuce

from games.engine.ranking import ranks_of

from .simulation import play_game, seatings, wilson_interval


@dataclass(frozen=True)
class Job:
    number: int
    seating: tuple[str, ...]
    deal_seed: str
    bot_seed: str
    target: int


@dataclass(frozen=True)
class Outcome:
    job: Job
    winner: int  # seat
    scores: tuple[int, ...]
    plays: int
    seconds: float


def run_job(job: Job) -> Outcome:
    """Play one game (in a worker process) with each bot's own budget."""
    started = time.perf_counter()
    state, plays = play_game(
        job.seating, deal_seed=job.deal_seed, bot_seed=job.bot_seed, target=job.target
    )
    seconds = time.perf_counter() - started
    return Outcome(job, state.winner, tuple(state.scores), plays, seconds)


def play_jobs(jobs: list[Job], processes: int | None = None) -> Iterator[Outcome]:
    """Play ``jobs`` on ``processes`` workers (all cores if None); yield outcomes as they
    finish (in any order)."""
    processes = processes or os.cpu_count() or 1
    if processes == 1:
        yield from map(run_job, jobs)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        yield from pool.imap_unordered(run_job, jobs, chunksize=2)


def match_jobs(
    lineups: Iterable[tuple[str, ...]], *, deals: int, seed: str, target: int
) -> list[Job]:
    """Each lineup plays ``deals`` deals, each under every distinct seating."""
    jobs = []
    for lineup in lineups:
        key = ",".join(lineup)
        for deal in range(1, deals + 1):
            for k, seating in enumerate(seatings(tuple(lineup), rotate=True)):
                jobs.append(
                    Job(
                        number=len(jobs),
                        seating=seating,
                        deal_seed=f"{seed}/deal/{deal}",
                        bot_seed=f"{seed}/{key}/deal/{deal}/seating/{k}",
                        target=target,
                    )
                )
    return jobs


def round_robin(pool: list[str]) -> list[tuple[str, ...]]:
    """Every lineup of three different bots of the pool."""
    return list(combinations(pool, 3))


def outcome_ranks(outcome: Outcome) -> list[int]:
    """OpenSkill ranks per seat, by the site's own rule (``ranking.ranks_of``): the winner
    first, the others by points. (Tying the two losers would let a bot that never wins
    share the rank of the one that nearly did.)"""
    return ranks_of(outcome.scores, outcome.winner)


@dataclass
class Standing:
    bot: str
    games: int = 0
    wins: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3

    @property
    def low(self) -> float:
        return self.mu - 2 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 2 * self.sigma

    def as_dict(self) -> dict:
        low, high = wilson_interval(self.wins, self.games)
        return {
            "bot": self.bot,
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "interval": [round(self.low, 2), round(self.high, 2)],
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
        }


@dataclass
class Ladder:
    """Ratings of the pool from outcomes, rated in scheduling order."""

    pool: list[str]
    standings: dict[str, Standing] = field(default_factory=dict)
    plays: int = 0
    seconds: float = 0.0

    def rate(self, outcomes: list[Outcome]) -> None:
        model = PlackettLuce()
        ratings = {bot: model.rating(name=bot) for bot in self.pool}
        self.standings = {bot: Standing(bot) for bot in self.pool}
        for outcome in sorted(outcomes, key=lambda o: o.job.number):
            seating = outcome.job.seating
            teams = [[ratings[bot]] for bot in seating]
            rated = model.rate(teams, ranks=outcome_ranks(outcome))
            for team, bot in zip(rated, seating, strict=True):
                ratings[bot] = team[0]
            for seat, bot in enumerate(seating):
                self.standings[bot].games += 1
                self.standings[bot].wins += seat == outcome.winner
            self.plays += outcome.plays
            self.seconds += outcome.seconds
        for bot, rating in ratings.items():
            self.standings[bot].mu, self.standings[bot].sigma = rating.mu, rating.sigma

    def table(self) -> list[Standing]:
        return sorted(self.standings.values(), key=lambda s: s.mu, reverse=True)


def run_ladder(
    pool: list[str],
    *,
    deals: int,
    seed: str,
    target: int = 10,
    processes: int | None = None,
    on_outcome: Callable[[int, int], None] | None = None,
) -> Ladder:
    """Play the round robin of ``pool`` and return the rated ladder."""
    jobs = match_jobs(round_robin(pool), deals=deals, seed=seed, target=target)
    outcomes = []
    for outcome in play_jobs(jobs, processes):
        outcomes.append(outcome)
        if on_outcome:
            on_outcome(len(outcomes), len(jobs))
    ladder = Ladder(pool)
    ladder.rate(outcomes)
    return ladder
