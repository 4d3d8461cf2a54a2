"""A game as its rows say: the engine state rebuilt from them, or this process's cached copy.

Rebuilding costs two queries (hands, plays) after the game row: each play is replayed
through the engine, so a row that broke the rules could never load silently.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from games.engine import GameState, parse_card
from games.models import Game, Hand, Play, Seat
from games.table import state_cache


class CorruptGame(RuntimeError):
    """The rows of a game disagree with the rules (never expected; logged and refused)."""


@dataclass
class LoadedGame:
    """A game row with its seats and its engine state."""

    game: Game
    seats: list[Seat]
    state: GameState

    def seat_of(self, user) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((seat for seat in self.seats if seat.user_id == user.pk), None)


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user__profile").order_by("number"))


def game_load(game: Game, seats: list[Seat] | None = None) -> LoadedGame:
    """Return ``game`` with its seats and engine state, from this process's cache or the rows.

    ``game`` must be fresh (read under the row lock when a move follows): the cache entry is
    chosen by its move count.
    """
    cached = state_cache.get((game.pk, game.seed), game.moves, game.updated_at)
    if cached is not None:
        return LoadedGame(game, cached.seats, cached.state)
    loaded = _rebuild(game, seats_of(game) if seats is None else seats)
    remember(loaded)
    return loaded


def cached_game(game_id: int, seed: str, moves: int) -> LoadedGame | None:
    """Return the game as it was after ``moves`` plays if this process has it, else None."""
    cached = state_cache.get((game_id, seed), moves)
    if cached is None:
        return None
    return LoadedGame(cached.game, cached.seats, cached.state)


def remember(loaded: LoadedGame) -> None:
    """Cache ``loaded`` as the game after its current move count."""
    game = loaded.game
    state_cache.put(
        (game.pk, game.seed),
        state_cache.Entry(game.moves, game, loaded.seats, loaded.state),
    )


def _rebuild(game: Game, seats: list[Seat]) -> LoadedGame:
    """Replay the game from its hand and play rows, up to the row's own move count: a page
    or a push that read the row just before a move committed shows the game as the row says
    (a board labelled with one move count must never show a later card)."""
    *_before, (state, _card) = replay(game)
    return LoadedGame(game=game, seats=seats, state=state)


def replay(game: Game) -> Iterator[tuple[GameState, str | None]]:
    """The game's state before its first card (with None), then after each card up to the
    row's move count (with that card's code): one state, played on between answers. Two
    queries (hands, plays) after the game row."""
    decks = Hand.objects.filter(game=game).order_by("number").values_list("deck", flat=True)
    plays = (
        Play.objects.filter(game=game, sequence__lt=game.moves)
        .order_by("sequence")
        .values_list("seat", "card")
    )
    state = GameState(
        game.target,
        seed=game.seed,
        first_dealer=game.first_dealer,
        decks=[tuple(parse_card(code) for code in deck) for deck in decks],
    )
    yield state, None
    for seat, card in plays:
        if seat != state.to_play:
            raise CorruptGame(f"Game {game.pk}: seat {seat} played out of turn.")
        state.play(seat, card)
        yield state, card
