"""Recording moves as rows: every move of one transaction is written together at its end.

A person's card and the bots' answers are often played in one transaction. Writing each
move as it is played costs a trick insert, a play insert, a trick update and a game update
per card; gathering them costs, on PostgreSQL, one statement for the lot (its parts chained
by data-modifying CTEs), elsewhere one statement per kind of row. That keeps a busy
worker's database round trips (and the GIL waits after each) down.
"""

from __future__ import annotations

from django.db import connection

from games.engine import CARD_CODES, HandRecord, TrickRecord
from games.models import Game, Hand, Play, Presence, Seat, Trick
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
        # Whether a socket besides the mover's is at the table, as the write found it (None:
        # not asked, or not known on this database): see ``write``.
        self.others_present: bool | None = None

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

    def write(self, mover_channel: str = "") -> None:
        """Write every noted move (and the game row's schedule): one statement on
        PostgreSQL, a few elsewhere, whatever the number of moves. The game's status,
        winner and schedule are set by the caller.

        With ``mover_channel`` (the socket that made the move, which shows it itself), the
        statement on PostgreSQL also says whether any other socket has a presence row at
        the table (``others_present``): a table nobody else watches then needs no
        broadcast, and no channel-layer round trip to find that out. Read here, after the
        game row's lock is held, no socket can slip between: one whose row is not seen
        yet reads its first board after this move commits (``games.table.lifecycle.
        game_after_writers``)."""
        options = connection.settings_dict.get("OPTIONS", {})
        if connection.vendor == "postgresql" and not options.get("server_side_binding"):
            _write_together(self, mover_channel)
            return
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
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)


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


class LostRows(RuntimeError):
    """The one statement wrote fewer plays than the moves noted: nothing is kept."""


def _write_together(rows: MoveRows, mover_channel: str = "") -> None:
    """PostgreSQL: every row of the batch in one statement, its parts chained by data-
    modifying CTEs. Such parts share one snapshot, so rows new in this statement (a new
    deal's hand, a new trick) are found through the ``RETURNING`` of their insert, not by
    a lookup. Rows go in as one array per column (``unnest``): the statement's text
    depends only on which parts it has, so psycopg parses it once, not for every move.
    The statement returns the plays it wrote, checked against those noted: a play that
    found no hand or trick fails the move instead of vanishing."""
    game = rows.loaded.game
    parts: list[str] = []
    params: list = []

    def part(name: str, sql: str, values: list) -> None:
        parts.append(f"{name} AS ({sql})")
        params.extend(values)

    hands = HANDS_OF_GAME
    if rows.hands:
        values = [v for hand in rows.hands for v in _hand_insert(game, hand)[1]]
        rows_sql = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows.hands))
        part("new_hands", f"{HAND_INSERT_TOGETHER} {rows_sql} RETURNING {HAND_ID_NUMBER}", values)
        hands = f"SELECT id, number FROM new_hands UNION ALL {hands}"
    part("hands", hands, [game.pk])
    tricks = []
    if rows.new_tricks:
        new = [(hand, n, *row) for (hand, n), row in rows.new_tricks.items()]
        part("new_tricks", TRICK_INSERT_TOGETHER, _by_column(new, TRICK_KINDS))
        tricks.append(("SELECT id, hand_id, number FROM new_tricks", []))
    if rows.finished:
        done = [(h, n, t.winner, t.points) for (h, n), t in rows.finished.items()]
        part("finished_tricks", TRICK_FINISH_TOGETHER, _by_column(done, FINISH_KINDS))
    earlier = sorted({(play[4], play[5]) for play in rows.plays} - set(rows.new_tricks))
    if earlier:
        tricks.append((TRICKS_EARLIER, _by_column(earlier, EARLIER_KINDS)))
    if rows.plays:
        part("tricks", " UNION ALL ".join(sql for sql, _ in tricks), [])
        params.extend(v for _, values in tricks for v in values)
        part("plays", PLAYS_TOGETHER, [game.pk, _now(game), *_by_column(rows.plays, PLAY_KINDS)])
    seats = _seat_changes(rows)
    if seats:
        changed = [(number, *row) for number, row in sorted(seats.items())]
        part("seats", SEATS_TOGETHER, [*_by_column(changed, SEAT_KINDS), game.pk])
    update, values = _game_update(game)
    written = "(SELECT count(*) FROM plays)" if rows.plays else "0"
    others, others_params = (
        (OTHERS_PRESENT, [game.pk, mover_channel]) if mover_channel else ("NULL", [])
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH {', '.join(parts)} {update} RETURNING {written}, {others}",
            params + values + others_params,
        )
        count, others_present = cursor.fetchone()
    rows.others_present = others_present
    if count != len(rows.plays):
        raise LostRows(f"game {game.pk}: {count} plays written of {len(rows.plays)}")


def _by_column(rows: list[tuple], kinds: tuple[str, ...]) -> list[str]:
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


def _seat_changes(rows: MoveRows) -> dict[int, list]:
    """Seat number -> [score, auto_in_row, stand_in], None where unchanged: the scores and
    the absence counters in one update (two updates of one row in a statement would
    leave only one of them)."""
    seats: dict[int, list] = {}
    if rows.scored:
        scores = rows.loaded.state.scores
        seats = {number: [score, None, None] for number, score in enumerate(scores)}
    for number in rows.seats_changed:
        seat = rows.loaded.seats[number]
        seats.setdefault(number, [None, None, None])[1:] = [seat.auto_in_row, seat.stand_in]
    return seats


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
OTHERS_PRESENT = (  # whether a socket besides the mover's has a presence row at the table
    f"EXISTS (SELECT 1 FROM {_table(Presence)} WHERE {_column(Presence, 'game')} = %s"
    f" AND {_column(Presence, 'channel')} <> %s)"
)
SEATS_TOGETHER = (
    f"UPDATE {SEAT} SET "
    + ", ".join(
        f"{_column(Seat, field)} = COALESCE(v.{field}, {SEAT}.{_column(Seat, field)})"
        for field in ("score", "auto_in_row", "stand_in")
    )
    + f" FROM {_unnest(*SEAT_KINDS)}"
    " AS v(number, score, auto_in_row, stand_in)"
    f" WHERE {SEAT}.{_column(Seat, 'game')} = %s AND {SEAT}.{_column(Seat, 'number')} = v.number"
)
