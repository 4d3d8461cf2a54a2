"""What one seat (or a spectator) may see of a game: the only thing that leaves the engine.

A view is a snapshot of plain ints and tuples with no link back to the game state, so
whoever holds it (a template, a WebSocket frame, a bot) cannot reach another seat's cards.
"""

from __future__ import annotations

from .cards import CARD_CODES


class SeatView:
    """Everything ``seat`` may see: its own hand and what has been played in public."""

    __slots__ = (
        "dealer",
        "hand",
        "hand_number",
        "hand_sizes",
        "last_trick",
        "leader",
        "played",
        "previous_tricks",
        "scores",
        "seat",
        "target",
        "to_play",
        "trick",
        "tricks",
        "winner",
    )

    def __init__(
        self,
        seat,
        target,
        hand,
        hand_sizes,
        to_play,
        leader,
        trick,
        played,
        tricks,
        last_trick,
        scores,
        hand_number,
        dealer,
        winner,
        previous_tricks=None,
    ):
        self.seat = seat  # None for a spectator
        self.target = target
        self.hand = hand  # this seat's cards, sorted; () for a spectator
        self.hand_sizes = hand_sizes
        self.to_play = to_play  # None once the game is over
        self.leader = leader
        self.trick = trick  # cards of the current trick, in play order
        self.played = played  # every card played in this hand so far, in order
        self.tricks = tricks  # this hand's completed tricks (TrickRecord)
        self.last_trick = last_trick  # the latest completed trick, maybe of the previous hand
        self.scores = scores
        self.hand_number = hand_number
        self.dealer = dealer
        self.winner = winner
        self.previous_tricks = previous_tricks  # the last whole hand's tricks (public), or None

    @property
    def previous_hand(self) -> tuple[int, int, int] | None:
        """The points each seat took in the last whole hand (None during the first). Worked
        out when asked: bots make many views and never ask."""
        if self.previous_tricks is None:
            return None
        points = [0, 0, 0]
        for trick in self.previous_tricks:
            points[trick.winner] += trick.points
        return tuple(points)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_play

    @property
    def legal_cards(self) -> tuple[int, ...]:
        """Every card in hand on this seat's turn: there is no obligation to follow suit."""
        return self.hand if self.my_turn else ()

    @property
    def trick_number(self) -> int:
        return len(self.tricks) if self.winner is not None else len(self.tricks) + 1

    def unseen_cards(self) -> tuple[int, ...]:
        """Cards this seat has not seen: they are in the other two hands."""
        seen = set(self.hand)
        seen.update(self.played)
        return tuple(card for card in range(48) if card not in seen)

    def to_dict(self) -> dict:
        """Return the view as JSON-ready data with card codes."""

        def codes(cards):
            return [CARD_CODES[card] for card in cards]

        def trick_dict(trick):
            return {
                "number": trick.number,
                "leader": trick.leader,
                "cards": codes(trick.cards),
                "winner": trick.winner,
                "points": trick.points,
            }

        return {
            "seat": self.seat,
            "target": self.target,
            "hand": codes(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "to_play": self.to_play,
            "leader": self.leader,
            "trick": codes(self.trick),
            "tricks": [trick_dict(t) for t in self.tricks],
            "last_trick": trick_dict(self.last_trick) if self.last_trick else None,
            "scores": list(self.scores),
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "winner": self.winner,
        }
