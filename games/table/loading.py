"""A game as its rows say: the engine state rebuilt from them, or this process's cached copy.

Rebuilding costs two statements after the game row (the seats with their people, the decks
with the plays), each written once (``common.kept_rows``): a socket's first board of a game
its process never saw, or a move after another process's, rebuilds. Each play is replayed
through the engine, so a row that broke the rules could never load silently.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from django.db import connection

from accounts.person_rows import person_columns, person_joins, row_with_person
from common.kept_rows import column, column_list, row_instance, table_name
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
        pk = user.pk  # once: a request's user is a lazy object, slow at every look
        return next((seat for seat in self.seats if seat.user_id == pk), None)


BIGINT = 2**63  # ids are 64-bit


def game_row(game_id: int, lock: str = "", db=connection) -> Game | None:
    """The game row by id (``lock``: a locking clause, " FOR UPDATE" say), or None. A plain
    statement, written once per vendor, and ``Model.from_db``: building the ORM's query cost
    more than the lookup itself, and every move and every socket starts with one."""
    if not -BIGINT <= game_id < BIGINT:  # an address's number past any id (SQLite refuses it)
        return None
    with db.cursor() as cursor:
        cursor.execute(_game_lookup(db.vendor, lock), [game_id])
        row = cursor.fetchone()
    return None if row is None else row_instance(Game, db, row)


@cache
def _game_lookup(vendor: str, lock: str) -> str:
    key = column(Game, "pk")
    return f"SELECT {column_list(Game)} FROM {table_name(Game)} WHERE {key} = %s{lock}"


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in order, each with its person and their profile, as
    ``select_related("user__profile")`` gives them: one statement, written once."""
    with connection.cursor() as cursor:
        cursor.execute(_seats_statement(connection.vendor), [game.pk])
        rows = cursor.fetchall()
    return [row_with_person(Seat, "user", row) for row in rows]


@cache
def _seats_statement(vendor: str) -> str:
    people = person_joins(f"s.{column(Seat, 'user')}")
    return (
        f"SELECT {column_list(Seat, 's')}, {person_columns()} FROM {table_name(Seat)} s{people}"
        f" WHERE s.{column(Seat, 'game')} = %s ORDER BY s.{column(Seat, 'number')}"
    )


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
    row's move count (with that card's code): one state, played on between answers. One
    statement after the game row (``decks_and_plays``)."""
    decks, plays = decks_and_plays(game)
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


def decks_and_plays(game: Game) -> tuple[list[list[str]], list[tuple[int, str]]]:
    """The game's decks, hand by hand, and its plays (seat, card) up to the row's move
    count, in order: one statement."""
    with connection.cursor() as cursor:
        cursor.execute(
            _decks_and_plays_statement(connection.vendor), [game.pk, game.pk, game.moves]
        )
        rows = cursor.fetchall()
    deck_field = Hand._meta.get_field("deck")
    decks = [
        deck_field.from_db_value(deck, None, connection) if isinstance(deck, str) else deck
        for is_play, _order, deck, _seat, _card in rows
        if not is_play
    ]
    plays = [(seat, card) for is_play, _order, _deck, seat, card in rows if is_play]
    return decks, plays


@cache
def _decks_and_plays_statement(vendor: str) -> str:
    hands, plays = table_name(Hand), table_name(Play)
    number, deck = column(Hand, "number"), column(Hand, "deck")
    sequence, seat, card = column(Play, "sequence"), column(Play, "seat"), column(Play, "card")
    return (
        f"SELECT 0, {number}, {deck}, NULL, NULL FROM {hands} WHERE {column(Hand, 'game')} = %s"
        f" UNION ALL SELECT 1, {sequence}, NULL, {seat}, {card} FROM {plays}"
        f" WHERE {column(Play, 'game')} = %s AND {sequence} < %s ORDER BY 1, 2"
    )
