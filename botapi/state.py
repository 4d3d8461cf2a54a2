"""What the API tells a seat of its game: built from that seat's ``SeatView`` and the cards
already played (public), nothing else; never a card of another hand before it is played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from accounts.selectors import is_bot_account, public_name
from games.engine import CARD_CODES, GameState, SeatView, TrickRecord
from games.models import Game, Play, Seat
from games.table.loading import CorruptGame, replay

STATUS = {
    Game.Status.WAITING: "running",  # not reached by API games: they start when made
    Game.Status.IN_PROGRESS: "running",
    Game.Status.FINISHED: "finished",
    Game.Status.ABANDONED: "abandoned",
}


def player_of(seat: Seat) -> dict:
    """``{"seat", "name", "kind"}``: kind ``bot`` (the site's), ``bot_account`` (a program
    playing through the API) or ``human``."""
    if seat.is_bot:
        return {"seat": seat.number, "name": seat.bot_name, "kind": "bot"}
    if seat.user_id is None:
        return {"seat": seat.number, "name": "", "kind": "empty"}
    kind = "bot_account" if is_bot_account(seat.user) else "human"
    return {"seat": seat.number, "name": public_name(seat.user), "kind": kind}


def _trick(trick: TrickRecord) -> dict:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "cards": [
            {"seat": (trick.leader + order) % 3, "card": CARD_CODES[card]}
            for order, card in enumerate(trick.cards)
        ],
        "winner": trick.winner,
        "points": trick.points,
    }


def state_of(view: SeatView, moves: list[str], game: Game, now: datetime | None = None) -> dict:
    """The API's state of ``view``'s seat: exactly the fields docs/bot-api.md lists.

    ``moves`` are the codes of the cards played so far, in order; ``now`` is given for the
    game's latest state only (its clock and status): an earlier one was running, no clock.
    """
    clock, status = None, "running"
    if now is not None:
        status = STATUS[game.status]
        if game.turn_deadline is not None and game.is_running:
            clock = round(max(0.0, (game.turn_deadline - now).total_seconds()), 1)
    over = status != "running"
    return {
        "moves": list(moves),
        "hand_number": view.hand_number,
        "trick_number": view.trick_number,
        "dealer": view.dealer,
        "leader": view.leader,
        "to_play": None if over else view.to_play,
        "hand": [CARD_CODES[card] for card in view.hand],
        "legal": [] if over else [CARD_CODES[card] for card in view.legal_cards],
        "trick": [
            {"seat": (view.leader + order) % 3, "card": CARD_CODES[card]}
            for order, card in enumerate(view.trick)
        ],
        "last_trick": _trick(view.last_trick) if view.last_trick else None,
        "scores": list(view.scores),
        "clock": clock,
        "status": status,
        "winner": view.winner,
    }


@dataclass
class Followed:
    """The engine's state of a game after ``cards`` (its codes, in order): a stream plays
    the new cards on it instead of replaying the game at each wake."""

    state: GameState
    cards: list[str]


@dataclass
class Snapshot:
    """A game as one seat's stream last showed it."""

    moves: int = -1
    status: str = ""
    stand_ins: dict = field(default_factory=dict)
    chat_id: int = 0
    followed: Followed | None = None


def _steps(game: Game, followed: Followed | None):
    """(move count, state, cards so far) from ``followed`` on (from the deal without it),
    up to the game row's move count: only the plays past ``followed`` are read."""
    if followed is None or len(followed.cards) > game.moves:
        followed = None
        for count, (state, card) in enumerate(replay(game)):
            cards = [] if followed is None else followed.cards
            if card is not None:
                cards.append(card)
            followed = Followed(state, cards)
            yield count, followed
        return
    yield len(followed.cards), followed
    plays = Play.objects.filter(game=game, sequence__gte=len(followed.cards))
    for seat, card in (
        plays.filter(sequence__lt=game.moves).order_by("sequence").values_list("seat", "card")
    ):
        if seat != followed.state.to_play:
            raise CorruptGame(f"Game {game.pk}: seat {seat} played out of turn.")
        followed.state.play(seat, card)
        followed.cards.append(card)
        yield len(followed.cards), followed


def states_after(
    game: Game, seat: int, after: int, now: datetime, followed: Followed | None = None
) -> tuple[list[tuple[int, dict]], Followed]:
    """The seat's state after each card past ``after`` (the latest with its clock), by move
    count; the latest state alone when ``after`` is -1 (a stream that opens). Also the game
    as followed to its latest card, to start from next time."""
    found = []
    for count, step in _steps(game, followed):
        followed = step
        if count > after and (after >= 0 or count == game.moves):
            clock_at = now if count == game.moves else None
            view = step.state.view_for(seat)
            found.append((count, state_of(view, step.cards, game, clock_at)))
    return found, followed
