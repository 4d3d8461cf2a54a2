"""The rows of one seeded game: the game as the engine played it, then its hands (with their
decks), tricks and plays as the site stores them, ids taken from reserved ranges."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.engine import CARD_CODES, GameState

SECONDS_PER_CARD = 4


@dataclass
class Played:
    """One game as the engine played it, before it has ids beyond its own."""

    index: int
    state: GameState
    seating: list[tuple[int | None, str, str]]
    target: int
    deal_seed: str
    leaver: int | None
    started: datetime
    finished: datetime
    is_public: bool
    is_rated: bool
    invite_token: str
    moves: int

    @property
    def abandoned(self) -> bool:
        return self.state.winner is None

    def counts(self) -> dict[str, int]:
        """How many hand, trick and play ids its rows take."""
        log = self.state.hand_log
        tricks = sum(len(hand.tricks) for hand in log) + (1 if log and self.state.trick else 0)
        return {"hand": len(log), "trick": tricks, "play": self.moves}


@dataclass
class Rows:
    games: list = field(default_factory=list)
    seats: list = field(default_factory=list)
    hands: list = field(default_factory=list)
    tricks: list = field(default_factory=list)
    plays: list = field(default_factory=list)


def card_rows(
    state: GameState, game_id: int, started: datetime, rows: Rows, next_id: dict[str, int]
) -> None:
    """The hands (with their decks), tricks and plays of one game, ids taken from
    ``next_id``."""
    sequence = 0
    for hand in state.hand_log:
        hand_id = next_id["hand"]
        next_id["hand"] += 1
        when = started + timedelta(seconds=sequence * SECONDS_PER_CARD)
        deck = json.dumps([CARD_CODES[card] for card in hand.deck])
        rows.hands.append((hand_id, game_id, hand.number, hand.dealer, deck, when))
        tricks = [(t.number, t.leader, t.cards, t.winner, t.points) for t in hand.tricks]
        if hand is state.hand_log[-1] and state.trick:
            tricks.append((len(hand.tricks) + 1, state.leader, tuple(state.trick), None, None))
        for number, leader, cards, winner, points in tricks:
            trick_id = next_id["trick"]
            next_id["trick"] += 1
            rows.tricks.append((trick_id, hand_id, number, leader, winner, points))
            for order, card in enumerate(cards):
                rows.plays.append(
                    (
                        next_id["play"],
                        game_id,
                        hand_id,
                        trick_id,
                        sequence,
                        order,
                        (leader + order) % 3,
                        CARD_CODES[card],
                        False,
                        started + timedelta(seconds=sequence * SECONDS_PER_CARD),
                    )
                )
                next_id["play"] += 1
                sequence += 1


HAND_COLUMNS = ("id", "game_id", "number", "dealer", "deck", "created_at")
TRICK_COLUMNS = ("id", "hand_id", "number", "leader", "winner", "points")
PLAY_COLUMNS = (
    "id",
    "game_id",
    "hand_id",
    "trick_id",
    "sequence",
    "order",
    "seat",
    "card",
    "auto",
    "played_at",
)
