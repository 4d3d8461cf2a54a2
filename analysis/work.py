"""The analysis lane's work, in its worker process: pure engine work on plain data (the
worker loads no Django models)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from games.engine import GameState
from games.engine.analysis import analyse
from games.table.thinking import wait_for_room


@dataclass(frozen=True)
class Job:
    """What a worker needs: the game's decks and cards, nothing of the database."""

    analysis_id: int
    attempt: int
    target: int
    first_dealer: int
    decks: list
    moves: list  # (seat, card) in play order
    seed: str
    iterations: int
    luck_deals: int


def work(job: Job) -> dict:
    """The analysis of ``job``, with the CPU seconds it took. Before each card it waits while
    its server has closed the lane's gate (the machine is busy: ``analysis.room``)."""
    started = time.process_time()
    state = GameState(job.target, decks=list(job.decks), first_dealer=job.first_dealer)
    result = analyse(
        state, job.moves, job.seed, job.iterations, job.luck_deals, before_each=wait_for_room
    )
    result["cpu_seconds"] = time.process_time() - started
    return result
