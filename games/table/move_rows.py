"""Recording moves as rows: every move of one transaction is written together at its end.

A person's card and the bots' answers are often played in one transaction. Writing each
move as it is played costs a trick insert, a play insert, a trick update and a game update
per card; gathering them costs one statement per kind of row for the lot, sent together.
That keeps a busy worker's database round trips (and the GIL waits after each) down.
"""

from __future__ import annotations

from django.db import connection

from games.engine import CARD_CODES, HandRecord, TrickRecord
from games.models import Game, Hand, Play, Seat, Trick
from games.table.loading import LoadedGame


class MoveRows:
    """The rows of the moves played on ``loaded`` in one transaction; ``write`` once, last.

    Rows refer to their hand and trick by number (the unique keys ``hand_number_unique`` and
    ``trick_number_unique``), so no statement waits for another's new id: on PostgreSQL the
    whole batch goes to the server in one round trip.
    """

    def __init__(self, loaded: LoadedGame):
        self.loaded = loaded
        self.hands: list[HandRecord] = []
        # (hand, trick) -> [leader, winner, points] of the tricks begun in this batch
        self.new_tricks: dict[tuple[int, int], list] = {}
        self.finished: dict[tuple[int, int], TrickRecord] = {}  # tricks begun in earlier batches
        # (sequence, order, seat, code, hand number, trick number, auto)
        self.plays: list[tuple] = []
        self.scored = False
        self.seats_changed: set[int] = set()  # seats whose absence counters changed

    def record(
        self,
        seat: int,
        trick: TrickRecord | None,
        hand_number: int,
        trick_number: int,
        order: int,
        auto: bool = False,
    ) -> str:
        """Note the move just played by ``seat``, the ``order``-th card of trick
        ``trick_number`` of hand ``hand_number`` (``trick`` is the trick it completed, if
        any); return the card's code."""
        state, game = self.loaded.state, self.loaded.game
        code = CARD_CODES[trick.cards[-1] if trick else state.trick[-1]]
        key = (hand_number, trick_number)
        if order == 0:
            self.new_tricks[key] = [seat, None, None]
        self.plays.append((game.moves, order, seat, code, hand_number, trick_number, auto))
        if trick is not None:
            if key in self.new_tricks:
                self.new_tricks[key][1:] = [trick.winner, trick.points]
            else:
                self.finished[key] = trick
            self.scored = self.scored or bool(trick.points)
            if state.hand_number != hand_number:
                self.hands.append(state.current_hand)
        game.moves += 1
        game.to_play = state.to_play
        return code

    def write(self) -> None:
        """Write every noted move (and the game row's schedule): a few statements whatever
        the number of moves. The game's status, winner and schedule are set by the caller."""
        game, state = self.loaded.game, self.loaded.state
        statements = [
            *(_hand_insert(game, hand) for hand in self.hands),
            *(_trick_insert(game, key, *row) for key, row in self.new_tricks.items()),
            *(_trick_finish(game, key, trick) for key, trick in self.finished.items()),
            *([_plays_insert(game, self.plays)] if self.plays else []),
            *([_scores_update(game, state.scores)] if self.scored else []),
            *(_seat_update(self.loaded.seats[number]) for number in sorted(self.seats_changed)),
            _game_update(game),
        ]
        _execute(statements)


# -- the statements -------------------------------------------------------------------------
# Plain SQL, written for both PostgreSQL and SQLite: the ORM would spend more time building
# these few statements than the database spends running them. Table and column names come
# from the models; tests/games/test_move_rows_schema.py checks them against the migrated
# schema and fails if a model gains a column these inserts would leave out.


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model, field: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(field).column)


def _columns(model, fields: tuple[str, ...]) -> str:
    return ", ".join(_column(model, field) for field in fields)


def _assignments(model, fields: tuple[str, ...]) -> str:
    return ", ".join(f"{_column(model, field)} = %s" for field in fields)


# The fields each statement writes, in the order of its parameters.
HAND_INSERT = ("game", "number", "dealer", "deck", "created_at")
TRICK_INSERT = ("hand", "number", "leader", "winner", "points")
TRICK_FINISH = ("winner", "points")
PLAY_INSERT = ("game", "hand", "trick", "sequence", "order", "seat", "card", "auto", "played_at")
SEAT_UPDATE = ("auto_in_row", "stand_in")
GAME_UPDATE = (
    "moves",
    "to_play",
    "updated_at",
    "status",
    "winner_seat",
    "finished_at",
    "abandoned_by",
    "due_at",
    "turn_deadline",
)

HAND, TRICK, PLAY, SEAT, GAME = (_table(model) for model in (Hand, Trick, Play, Seat, Game))
HAND_ID = (
    f"(SELECT {_column(Hand, 'id')} FROM {HAND}"
    f" WHERE {_column(Hand, 'game')} = %s AND {_column(Hand, 'number')} = %s)"
)
TRICK_ID = (
    f"(SELECT {_column(Trick, 'id')} FROM {TRICK}"
    f" WHERE {_column(Trick, 'hand')} = {HAND_ID} AND {_column(Trick, 'number')} = %s)"
)
HAND_INSERT_SQL = f"INSERT INTO {HAND} ({_columns(Hand, HAND_INSERT)}) VALUES (%s, %s, %s, %s, %s)"
TRICK_INSERT_SQL = (
    f"INSERT INTO {TRICK} ({_columns(Trick, TRICK_INSERT)}) VALUES ({HAND_ID}, %s, %s, %s, %s)"
)
TRICK_FINISH_SQL = (
    f"UPDATE {TRICK} SET {_assignments(Trick, TRICK_FINISH)}"
    f" WHERE {_column(Trick, 'hand')} = {HAND_ID} AND {_column(Trick, 'number')} = %s"
)
PLAY_INSERT_SQL = f"INSERT INTO {PLAY} ({_columns(Play, PLAY_INSERT)}) VALUES "  # + rows
PLAY_ROW_SQL = f"(%s, {HAND_ID}, {TRICK_ID}, %s, %s, %s, %s, %s, %s)"
SEAT_UPDATE_SQL = (
    f"UPDATE {SEAT} SET {_assignments(Seat, SEAT_UPDATE)} WHERE {_column(Seat, 'id')} = %s"
)
SCORES_UPDATE_SQL = (
    f"UPDATE {SEAT} SET {_column(Seat, 'score')} = CASE {_column(Seat, 'number')}"
    f" WHEN 0 THEN %s WHEN 1 THEN %s ELSE %s END WHERE {_column(Seat, 'game')} = %s"
)
GAME_UPDATE_SQL = (
    f"UPDATE {GAME} SET {_assignments(Game, GAME_UPDATE)} WHERE {_column(Game, 'id')} = %s"
)
Statement = tuple[str, list]


def _now(game: Game):
    return connection.ops.adapt_datetimefield_value(game.updated_at)


def _hand_insert(game: Game, hand: HandRecord) -> Statement:
    deck = Hand._meta.get_field("deck").get_db_prep_save(
        [CARD_CODES[card] for card in hand.deck], connection
    )
    return (
        HAND_INSERT_SQL,
        [game.pk, hand.number, hand.dealer, deck, _now(game)],
    )


def _trick_insert(game, key, leader, winner, points) -> Statement:
    hand, number = key
    return (
        TRICK_INSERT_SQL,
        [game.pk, hand, number, leader, winner, points],
    )


def _trick_finish(game: Game, key: tuple[int, int], trick: TrickRecord) -> Statement:
    hand, number = key
    return (
        TRICK_FINISH_SQL,
        [trick.winner, trick.points, game.pk, hand, number],
    )


def _plays_insert(game: Game, plays: list[tuple]) -> Statement:
    params = []
    for sequence, order, seat, code, hand, trick, auto in plays:
        params += [game.pk, game.pk, hand, game.pk, hand, trick]
        params += [sequence, order, seat, code, auto, _now(game)]
    return (
        PLAY_INSERT_SQL + ", ".join([PLAY_ROW_SQL] * len(plays)),
        params,
    )


def _seat_update(seat: Seat) -> Statement:
    return (
        SEAT_UPDATE_SQL,
        [seat.auto_in_row, seat.stand_in, seat.pk],
    )


def _scores_update(game: Game, scores: list[int]) -> Statement:
    return (
        SCORES_UPDATE_SQL,
        [*scores, game.pk],
    )


def _game_update(game: Game) -> Statement:
    return (
        GAME_UPDATE_SQL,
        [
            game.moves,
            game.to_play,
            _now(game),
            game.status,
            game.winner_seat,
            _moment(game.finished_at),
            game.abandoned_by,
            _moment(game.due_at),
            _moment(game.turn_deadline),
            game.pk,
        ],
    )


def _moment(value):
    return value and connection.ops.adapt_datetimefield_value(value)


def _execute(statements: list[Statement]) -> None:
    """Run the statements: in one round trip on PostgreSQL, whose client-side binding
    cursor (Django's default) takes several statements at once; one by one elsewhere."""
    options = connection.settings_dict.get("OPTIONS", {})
    together = connection.vendor == "postgresql" and not options.get("server_side_binding")
    with connection.cursor() as cursor:
        if together:
            cursor.execute(
                ";\n".join(sql for sql, _ in statements),
                [value for _, params in statements for value in params],
            )
        else:
            for sql, params in statements:
                cursor.execute(sql, params)
