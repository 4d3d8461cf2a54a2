"""Small helpers shared by the engine tests."""

import random

from games.engine import GameState


def snapshot(state: GameState) -> tuple:
    """Everything that makes up a state, to check that a refused play changed nothing."""
    return (
        [list(hand) for hand in state.hands],
        state.trick,
        state.played,
        list(state.scores),
        state.to_play,
        state.leader,
        state.winner,
        state.last_trick,
        [(h.number, h.dealer, h.deck, list(h.tricks)) for h in state.hand_log],
    )


def play_randomly(state: GameState, rng: random.Random, limit: int | None = None) -> int:
    """Play random legal cards until the game ends (or ``limit`` plays); return plays made."""
    plays = 0
    while state.winner is None and (limit is None or plays < limit):
        seat = state.to_play
        state.play(seat, rng.choice(state.legal_cards(seat)))
        plays += 1
    return plays
