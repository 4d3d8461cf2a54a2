"""The state of one game of Coins and the only function that changes it, `GameState.play`.

The state holds every hand, so it never leaves the server: clients and bots receive
`GameState.view_for(seat)`, a snapshot of what that seat may see.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import parse_card
from .errors import GameOver, InvalidRecord, NotACard, NotInHand, NotYourTurn
from .shuffle import deck_from_seed, first_dealer_from_seed, new_seed
from .tricks import TRICK_POINTS, TRICK_WINNER, trick_index
from .views import SeatView

SEATS = (0, 1, 2)
TRICKS_PER_HAND = 16


def deal(deck: tuple[int, ...], dealer: int) -> list[list[int]]:
    """Deal ``deck`` one card at a time clockwise from the dealer's left; hands come sorted."""
    hands: list[list[int]] = [[], [], []]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % 3].append(card)
    for hand in hands:
        hand.sort()
    return hands


class TrickRecord(NamedTuple):
    """A completed trick: ``cards`` in play order, ``winner`` as a seat."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int


class HandRecord:
    """One deal: who dealt, the shuffled deck, and the tricks completed so far."""

    __slots__ = ("dealer", "deck", "number", "tricks")

    def __init__(self, number: int, dealer: int, deck: tuple[int, ...], tricks=None):
        self.number = number
        self.dealer = dealer
        self.deck = deck
        self.tricks: list[TrickRecord] = list(tricks or ())

    def __repr__(self) -> str:
        return f"HandRecord(number={self.number}, dealer={self.dealer}, tricks={len(self.tricks)})"


class GameState:
    """A game from its first deal to the trick that brings a total to the target.

    Decks come from ``decks`` (hand 1 first) while it has them, then from ``seed``.
    """

    __slots__ = (
        "_decks",
        "first_dealer",
        "hand_log",
        "hands",
        "last_trick",
        "leader",
        "played",
        "scores",
        "seed",
        "target",
        "to_play",
        "trick",
        "winner",
    )

    def __init__(
        self,
        target: int = 10,
        seed: str | None = None,
        *,
        first_dealer: int | None = None,
        decks: list[tuple[int, ...]] | None = None,
    ):
        if target.__class__ is not int or target < 1:
            raise ValueError("The target score must be a whole number of at least 1.")
        if seed is None and not decks:
            seed = new_seed()
        if first_dealer is None:
            if seed is None:
                raise ValueError("Give a first dealer when the game has no seed.")
            first_dealer = first_dealer_from_seed(seed)
        if first_dealer not in SEATS:
            raise ValueError("The first dealer must be seat 0, 1 or 2.")
        self.target = target
        self.seed = seed
        self._decks = list(decks or ())
        self.first_dealer = first_dealer
        self.scores = [0, 0, 0]
        self.winner: int | None = None
        self.last_trick: TrickRecord | None = None
        self.hand_log: list[HandRecord] = []
        self._start_hand(first_dealer)

    # -- reading ---------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def current_hand(self) -> HandRecord:
        return self.hand_log[-1]

    @property
    def hand_number(self) -> int:
        return len(self.hand_log)

    @property
    def dealer(self) -> int:
        return self.hand_log[-1].dealer

    @property
    def trick_number(self) -> int:
        """The number (1..16) of the trick being played, or of the last one once over."""
        tricks = len(self.hand_log[-1].tricks)
        return tricks if self.winner is not None else tricks + 1

    def legal_cards(self, seat: int) -> tuple[int, ...]:
        """Every card the seat holds when it is its turn (no need to follow suit), else none."""
        if self.winner is not None or seat != self.to_play:
            return ()
        return tuple(self.hands[seat])

    def view_for(self, seat: int | None) -> SeatView:
        """Return what ``seat`` may see; ``None`` gives the spectator's view (no hand)."""
        hands = self.hands
        return SeatView(
            seat,
            self.target,
            () if seat is None else tuple(hands[seat]),
            (len(hands[0]), len(hands[1]), len(hands[2])),
            self.to_play,
            self.leader,
            self.trick,
            self.played,
            tuple(self.hand_log[-1].tricks),
            self.last_trick,
            tuple(self.scores),
            len(self.hand_log),
            self.hand_log[-1].dealer,
            self.winner,
            previous_tricks=self.hand_log[-2].tricks if len(self.hand_log) > 1 else None,
        )

    def spectator_view(self) -> SeatView:
        return self.view_for(None)

    def deck_for(self, hand_number: int) -> tuple[int, ...]:
        """Return the shuffled deck of hand ``hand_number`` (1-based)."""
        if hand_number <= len(self._decks):
            return self._decks[hand_number - 1]
        if self.seed is None:
            raise InvalidRecord(f"No deck is known for hand {hand_number}.")
        return deck_from_seed(self.seed, hand_number)

    # -- changing --------------------------------------------------------------------------

    def play(self, seat: int, card: int | str) -> TrickRecord | None:
        """Play ``card`` from ``seat``; return the trick if this card completed one.

        Raise GameOver, NotACard, NotYourTurn or NotInHand, leaving the state unchanged.
        """
        if self.winner is not None:
            raise GameOver("The game is over.")
        if card.__class__ is not int:
            card = parse_card(card)
        elif not 0 <= card < 48:
            raise NotACard(f"{card!r} is not a card.")
        if seat != self.to_play:
            raise NotYourTurn(f"It is not your turn: seat {self.to_play} plays next.")
        hand = self.hands[seat]
        if card not in hand:
            raise NotInHand("That card is not in your hand.")
        hand.remove(card)
        self.played += (card,)
        trick = (*self.trick, card)
        if len(trick) < 3:
            self.trick = trick
            self.to_play = (seat + 1) % 3
            return None
        return self._finish_trick(trick)

    def _finish_trick(self, trick: tuple[int, ...]) -> TrickRecord:
        index = trick_index(*trick)
        winner = (self.leader + TRICK_WINNER[index]) % 3
        points = TRICK_POINTS[index]
        current = self.hand_log[-1]
        record = TrickRecord(len(current.tricks) + 1, self.leader, trick, winner, points)
        current.tricks.append(record)
        self.last_trick = record
        self.trick = ()
        self.scores[winner] += points
        if self.scores[winner] >= self.target:
            self.winner = winner  # the game ends at once, even mid-hand
            self.to_play = None
        elif record.number == TRICKS_PER_HAND:
            self._start_hand(dealer=(winner + 2) % 3)
        else:
            self.leader = self.to_play = winner
        return record

    def _start_hand(self, dealer: int) -> None:
        deck = self.deck_for(len(self.hand_log) + 1)
        self.hand_log.append(HandRecord(len(self.hand_log) + 1, dealer, deck))
        self.hands = deal(deck, dealer)
        self.leader = self.to_play = (dealer + 1) % 3
        self.trick = ()
        self.played = ()

    def clone(self) -> GameState:
        """Return an independent copy: playing on it leaves this state as it is."""
        twin = GameState.__new__(GameState)
        for name in GameState.__slots__:
            setattr(twin, name, getattr(self, name))
        twin._decks = list(self._decks)
        twin.scores = list(self.scores)
        twin.hands = [list(hand) for hand in self.hands]
        twin.hand_log = [HandRecord(h.number, h.dealer, h.deck, h.tricks) for h in self.hand_log]
        return twin
