"""The hand-written SQL that records moves (``games/table/move_rows.py``): the statements
of each kind of row, and the parts of PostgreSQL's one statement for a whole batch."""

from __future__ import annotations

from django.db import connection

from games.engine import CARD_CODES, HandRecord, TrickRecord
from games.models import Game, Hand, Play, PlayerStats, Presence, Seat, Trick

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
STATS_INSERT = ("user", "finished", "won", "abandoned")  # a won game's people, counted
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


def stamp(game: Game):
    return connection.ops.adapt_datetimefield_value(game.updated_at)


def hand_insert(game: Game, hand: HandRecord) -> Statement:
    deck = Hand._meta.get_field("deck").get_db_prep_save(
        [CARD_CODES[card] for card in hand.deck], connection
    )
    return (
        HAND_INSERT_SQL,
        [game.pk, hand.number, hand.dealer, deck, stamp(game)],
    )


def trick_insert(game, key, leader, winner, points) -> Statement:
    hand, number = key
    return (
        TRICK_INSERT_SQL,
        [game.pk, hand, number, leader, winner, points],
    )


def trick_finish(game: Game, key: tuple[int, int], trick: TrickRecord) -> Statement:
    hand, number = key
    return (
        TRICK_FINISH_SQL,
        [trick.winner, trick.points, game.pk, hand, number],
    )


def plays_insert(game: Game, plays: list[tuple]) -> Statement:
    params = []
    for sequence, order, seat, code, hand, trick, auto in plays:
        params += [game.pk, game.pk, hand, game.pk, hand, trick]
        params += [sequence, order, seat, code, auto, stamp(game)]
    return (
        PLAY_INSERT_SQL + ", ".join([PLAY_ROW_SQL] * len(plays)),
        params,
    )


def seat_update(seat: Seat) -> Statement:
    return (
        SEAT_UPDATE_SQL,
        [seat.auto_in_row, seat.stand_in, seat.pk],
    )


def scores_update(game: Game, scores: list[int]) -> Statement:
    return (
        SCORES_UPDATE_SQL,
        [*scores, game.pk],
    )


def game_update(game: Game) -> Statement:
    return (
        GAME_UPDATE_SQL,
        [
            game.moves,
            game.to_play,
            stamp(game),
            game.status,
            game.winner_seat,
            moment(game.finished_at),
            game.abandoned_by,
            moment(game.due_at),
            moment(game.turn_deadline),
            game.pk,
        ],
    )


def moment(value):
    return value and connection.ops.adapt_datetimefield_value(value)


def by_column(rows: list[tuple], kinds: tuple[str, ...]) -> list[str]:
    """The rows as one array parameter per column, of these types (``_unnest``)."""
    columns = zip(*rows, strict=True) if rows else [()] * len(kinds)
    return [array_literal(column, kind) for column, kind in zip(columns, kinds, strict=True)]


def array_literal(values, kind: str) -> str:
    """``values`` as the text of a PostgreSQL array of ``kind`` (integer, text or boolean).

    psycopg's client-side binding dumps a list parameter in Python, element by element,
    finding each element's type: 3.8% of a busy server's Python time went to this one
    statement's arrays. One string per array is quoted once (in C), and the server parses
    the array, the cast beside each parameter saying its type."""
    if kind == "integer":
        items = ("NULL" if v is None else str(int(v)) for v in values)
    elif kind == "boolean":
        items = ("NULL" if v is None else "t" if v else "f" for v in values)
    elif kind == "text":
        items = ("NULL" if v is None else '"' + _array_escaped(v) + '"' for v in values)
    else:
        raise ValueError(f"no array literal for {kind}")
    return "{" + ",".join(items) + "}"


def _array_escaped(text: str) -> str:
    """An element inside double quotes: its backslashes and double quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _unnest(*kinds: str) -> str:
    """A table from one array parameter per column, of these types."""
    return "unnest(" + ", ".join(f"%s::{kind}[]" for kind in kinds) + ")"


# The parts of the one statement, and the types of their array parameters' columns.
TRICK_KINDS = ("integer",) * 5  # hand, number, leader, winner, points
FINISH_KINDS = ("integer",) * 4  # hand, number, winner, points
EARLIER_KINDS = ("integer",) * 2  # hand, number
PLAY_KINDS = ("integer", "integer", "integer", "text", "integer", "integer", "boolean")
SEAT_KINDS = ("integer", "integer", "integer", "text")  # number, score, auto_in_row, stand_in
HAND_ID_NUMBER = f"{_column(Hand, 'id')} AS id, {_column(Hand, 'number')} AS number"
HANDS_OF_GAME = f"SELECT {HAND_ID_NUMBER} FROM {HAND} WHERE {_column(Hand, 'game')} = %s"
HAND_INSERT_TOGETHER = f"INSERT INTO {HAND} ({_columns(Hand, HAND_INSERT)}) VALUES"
HAND_INSERT_GUARDED = (  # + "(VALUES ...) AS v WHERE " + the guard: nothing if it failed
    f"INSERT INTO {HAND} ({_columns(Hand, HAND_INSERT)}) SELECT v.* FROM"
)
TRICK_HAND, TRICK_NUMBER = _column(Trick, "hand"), _column(Trick, "number")
TRICK_INSERT_TOGETHER = (
    f"INSERT INTO {TRICK} ({_columns(Trick, TRICK_INSERT)})"
    " SELECT hands.id, v.number, v.leader, v.winner, v.points"
    f" FROM {_unnest(*TRICK_KINDS)} AS v(hand, number, leader, winner, points)"
    " JOIN hands ON hands.number = v.hand"
    f" RETURNING {_column(Trick, 'id')} AS id, {TRICK_HAND} AS hand_id, {TRICK_NUMBER} AS number"
)
TRICK_FINISH_TOGETHER = (
    f"UPDATE {TRICK} SET {_column(Trick, 'winner')} = v.winner,"
    f" {_column(Trick, 'points')} = v.points"
    f" FROM {_unnest(*FINISH_KINDS)} AS v(hand, number, winner, points)"
    " JOIN hands ON hands.number = v.hand"
    f" WHERE {TRICK}.{TRICK_HAND} = hands.id AND {TRICK}.{TRICK_NUMBER} = v.number"
)
TRICKS_EARLIER = (
    f"SELECT t.{_column(Trick, 'id')}, t.{TRICK_HAND}, t.{TRICK_NUMBER}"
    f" FROM {TRICK} AS t JOIN hands ON t.{TRICK_HAND} = hands.id"
    f" JOIN {_unnest(*EARLIER_KINDS)} AS k(hand, number)"
    f" ON k.hand = hands.number AND k.number = t.{TRICK_NUMBER}"
)
PLAYS_TOGETHER = (  # the rows of MoveRows.plays, one array per column
    f"INSERT INTO {PLAY} ({_columns(Play, PLAY_INSERT)})"
    " SELECT %s, hands.id, tricks.id, v.sequence, v.ord, v.seat, v.card, v.auto, %s"
    f" FROM {_unnest(*PLAY_KINDS)}"
    " AS v(sequence, ord, seat, card, hand, trick, auto)"
    " JOIN hands ON hands.number = v.hand"
    " JOIN tricks ON tricks.hand_id = hands.id AND tricks.number = v.trick RETURNING 1"
)
GUARD = (  # the row as the cached game was, locked: a guarded batch's parts all wait on it
    f"SELECT 1 FROM {GAME} WHERE {_column(Game, 'id')} = %s AND {_column(Game, 'moves')} = %s"
    f" AND {_column(Game, 'updated_at')} = %s AND {_column(Game, 'status')} = %s FOR UPDATE"
)
GUARDED = "EXISTS (SELECT 1 FROM guard)"
OTHERS_PRESENT = (  # whether a socket besides the mover's has a presence row at the table
    f"EXISTS (SELECT 1 FROM {_table(Presence)} WHERE {_column(Presence, 'game')} = %s"
    f" AND {_column(Presence, 'channel')} <> %s)"
)
SEAT_FIELDS = ("score", "auto_in_row", "stand_in")  # COALESCE: NULL leaves the column


def _seats_together(settled: bool) -> str:
    """The seats' scores and absence counters (``settled``: and, the game just won, each
    seat's outcome where it has none yet, as ``seats_settle`` writes it)."""
    sets = [f"{_column(Seat, f)} = COALESCE(v.{f}, {SEAT}.{_column(Seat, f)})" for f in SEAT_FIELDS]
    names = "number, " + ", ".join(SEAT_FIELDS)
    if settled:
        outcome = f"{SEAT}.{_column(Seat, 'outcome')}"
        sets.append(
            f"{_column(Seat, 'outcome')} = CASE WHEN {outcome} = '' THEN v.outcome"
            f" ELSE {outcome} END"
        )
        names += ", outcome"
    return (
        f"UPDATE {SEAT} SET {', '.join(sets)}"
        f" FROM {_unnest(*(SETTLED_KINDS if settled else SEAT_KINDS))} AS v({names})"
        f" WHERE {SEAT}.{_column(Seat, 'game')} = %s"
        f" AND {SEAT}.{_column(Seat, 'number')} = v.number"
    )


SETTLED_KINDS = (*SEAT_KINDS, "text")  # ..., outcome
SEATS_TOGETHER = _seats_together(settled=False)
SEATS_SETTLED_TOGETHER = _seats_together(settled=True)
STATS, STATS_USER = _table(PlayerStats), _column(PlayerStats, "user")
STATS_FINISHED, STATS_WON = _column(PlayerStats, "finished"), _column(PlayerStats, "won")


def _stats_counted(guarded: bool) -> str:
    """One more game finished for each person (an array), won by one of them (or none),
    counted only where the game's seats had no outcome as the statement began."""
    unsettled = (
        f"EXISTS (SELECT 1 FROM {SEAT} WHERE {_column(Seat, 'game')} = %s"
        f" AND {_column(Seat, 'outcome')} = '')"
    )
    return (
        f"INSERT INTO {STATS} ({_columns(PlayerStats, STATS_INSERT)})"
        " SELECT v.person, 1, CASE WHEN v.person = %s THEN 1 ELSE 0 END, 0"
        f" FROM unnest(%s::bigint[]) AS v(person) WHERE {unsettled}"
        + (f" AND {GUARDED}" if guarded else "")
        + f" ON CONFLICT ({STATS_USER}) DO UPDATE SET"
        f" {STATS_FINISHED} = {STATS}.{STATS_FINISHED} + 1,"
        f" {STATS_WON} = {STATS}.{STATS_WON} + EXCLUDED.{STATS_WON}"
    )


STATS_COUNTED_TOGETHER = _stats_counted(guarded=False)
STATS_COUNTED_GUARDED = _stats_counted(guarded=True)
