"""Recording moves as rows: every move of one transaction is written together at its end.

A person's card and the bots' answers are often played in one transaction. Writing each
move as it is played costs a trick insert, a play insert, a trick update and a game update
per card; gathering them costs one insert per table and one game update for the lot, which
is what keeps a busy worker's database round trips (and the GIL waits after each) down.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from .engine import CARD_CODES, TrickRecord
from .models import Game, Hand, Play, Seat, Trick
from .selectors import LoadedGame
from .signals import announce_game_over


@dataclass
class MoveResult:
    """A move that was applied, with what the caller needs to show it at once."""

    loaded: LoadedGame
    seat: int
    card: str
    trick: TrickRecord | None
    played: int = 1  # moves played by the call that returns this one (bots that followed too)

    @property
    def moves(self) -> int:
        return self.loaded.game.moves

    @property
    def bot_due(self) -> str | None:
        """The level of the bot to play next, or None (a person's turn, or the game is over)."""
        state = self.loaded.state
        if state.winner is not None or not self.loaded.game.is_running:
            return None
        return self.loaded.seats[state.to_play].bot or None


class MoveRows:
    """The rows of the moves played on ``loaded`` in one transaction; ``write`` once, last."""

    def __init__(self, loaded: LoadedGame):
        self.loaded = loaded
        self.hands: list[Hand] = []
        self.tricks: list[Trick] = []
        self.plays: list[Play] = []
        self.finished: dict[int, TrickRecord] = {}  # an existing trick row -> its result
        self.scorers: set[int] = set()
        # The unfinished trick: an existing row's id, or a Trick written with the next batch.
        self.current: int | Trick | None = loaded.current_trick_id

    def record(
        self, seat: int, trick: TrickRecord | None, hand_number: int, trick_number: int, order: int
    ) -> str:
        """Note the move just played by ``seat``, the ``order``-th card of trick
        ``trick_number`` of hand ``hand_number`` (``trick`` is the trick it completed, if
        any); return the card's code."""
        state, game = self.loaded.state, self.loaded.game
        code = CARD_CODES[trick.cards[-1] if trick else state.trick[-1]]
        hand = self._hand(hand_number)
        if order == 0:
            self.current = Trick(number=trick_number, leader=seat, **hand)
            self.tricks.append(self.current)
        current = self.current
        in_trick = {"trick": current} if isinstance(current, Trick) else {"trick_id": current}
        self.plays.append(
            Play(
                game=game,
                sequence=game.moves,
                order=order,
                seat=seat,
                card=code,
                **hand,
                **in_trick,
            )
        )
        if trick is not None:
            if isinstance(current, Trick):
                current.winner, current.points = trick.winner, trick.points
            else:
                self.finished[current] = trick
            if trick.points:
                self.scorers.add(trick.winner)
            if state.hand_number != hand_number:
                self.hands.append(
                    Hand(
                        game=game,
                        number=state.hand_number,
                        dealer=state.dealer,
                        deck=[CARD_CODES[c] for c in state.current_hand.deck],
                    )
                )
            self.current = None
        game.moves += 1
        game.to_play = state.to_play
        return code

    def _hand(self, number: int) -> dict:
        """The hand row a move of hand ``number`` belongs to, as model keyword arguments."""
        hand_id = self.loaded.hand_ids.get(number)
        if hand_id is not None:
            return {"hand_id": hand_id}
        return {"hand": next(hand for hand in self.hands if hand.number == number)}

    def write(self) -> None:
        """Write every noted move: a few statements whatever the number of moves."""
        if not self.plays:
            return
        loaded, game, state = self.loaded, self.loaded.game, self.loaded.state
        if self.hands:
            Hand.objects.bulk_create(self.hands)
            loaded.hand_ids.update({hand.number: hand.pk for hand in self.hands})
        if self.tricks:  # bulk_create copies the new parents' ids onto the children
            Trick.objects.bulk_create(self.tricks)
        for trick_id, result in self.finished.items():
            Trick.objects.filter(pk=trick_id).update(winner=result.winner, points=result.points)
        Play.objects.bulk_create(self.plays)
        for number in sorted(self.scorers):  # Seat objects stay as loaded: the cache shares them
            Seat.objects.filter(pk=loaded.seats[number].pk).update(score=state.scores[number])
        fields = ["moves", "to_play", "updated_at"]
        if state.winner is not None:
            game.status = Game.Status.FINISHED
            game.winner_seat = state.winner
            game.finished_at = timezone.now()
            fields += ["status", "winner_seat", "finished_at"]
            announce_game_over(game.pk)
        game.save(update_fields=fields)
        current = self.current
        loaded.current_trick_id = current.pk if isinstance(current, Trick) else current


def play_and_record(rows: MoveRows, seat: int, card: object) -> MoveResult:
    """Play on the engine state (raising IllegalPlay before anything is noted), and note
    the rows that record the move."""
    state = rows.loaded.state
    hand_number, trick_number, order = state.hand_number, state.trick_number, len(state.trick)
    trick = state.play(seat, card)
    code = rows.record(seat, trick, hand_number, trick_number, order)
    return MoveResult(rows.loaded, seat, code, trick)
