"""Recording moves as rows: every move of one transaction is written together at its end.

A person's card and the bots' answers are often played in one transaction. Writing each
move as it is played costs a trick insert, a play insert, a trick update and a game update
per card; gathering them costs, on PostgreSQL, one statement for the lot (its parts chained
by data-modifying CTEs), elsewhere one statement per kind of row. That keeps a busy
worker's database round trips (and the GIL waits after each) down.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import SimpleNamespace

import psycopg
from django.db import connection

from games.engine import CARD_CODES, HandRecord, TrickRecord
from games.history.player_records import settlement
from games.models import Game
from games.table.loading import LoadedGame
from games.table.move_sql import (
    EARLIER_KINDS,
    FINISH_KINDS,
    GUARD,
    GUARDED,
    HAND_ID_NUMBER,
    HAND_INSERT_GUARDED,
    HAND_INSERT_TOGETHER,
    HANDS_OF_GAME,
    OTHERS_PRESENT,
    PLAY_KINDS,
    PLAYS_TOGETHER,
    SEAT_KINDS,
    SEATS_SETTLED_TOGETHER,
    SEATS_TOGETHER,
    SETTLED_KINDS,
    STATS_COUNTED_GUARDED,
    STATS_COUNTED_TOGETHER,
    TRICK_FINISH_TOGETHER,
    TRICK_INSERT_TOGETHER,
    TRICK_KINDS,
    TRICKS_EARLIER,
    by_column,
    game_update,
    hand_insert,
    moment,
    plays_insert,
    scores_update,
    seat_update,
    stamp,
    trick_finish,
    trick_insert,
)


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
        self.settled = False  # the game won by these moves settled in the write's statement

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

    def write(self, mover_channel: str = "", guard: tuple | None = None) -> None:
        """Write every noted move (and the game row's schedule): one statement on
        PostgreSQL, a few elsewhere, whatever the number of moves. The game's status,
        winner and schedule are set by the caller.

        With ``mover_channel`` (the socket that made the move, which shows it itself), the
        statement on PostgreSQL also says whether any other socket has a presence row at
        the table (``others_present``): a table nobody else watches then needs no
        broadcast, and no channel-layer round trip to find that out. Read here, after the
        game row's lock is held, no socket can slip between: one whose row is not seen
        yet reads its first board after this move commits (``games.table.lifecycle.
        game_after_writers``).

        ``guard`` (the move count and ``updated_at`` the game was played on; PostgreSQL
        only): a move made without the row's lock (``games/table/unlocked.py``). The
        statement writes nothing unless the row still says so, and raises ``StaleTable``
        then."""
        if writes_together():
            _write_together(self, mover_channel, guard)
            return
        if guard is not None:
            raise NeedsLock("only PostgreSQL writes a batch guarded")
        game, state = self.loaded.game, self.loaded.state
        statements = [
            *(hand_insert(game, hand) for hand in self.hands),
            *(trick_insert(game, key, *row) for key, row in self.new_tricks.items()),
            *(trick_finish(game, key, trick) for key, trick in self.finished.items()),
            *([plays_insert(game, self.plays)] if self.plays else []),
            *([scores_update(game, state.scores)] if self.scored else []),
            *(seat_update(self.loaded.seats[number]) for number in sorted(self.seats_changed)),
            game_update(game),
        ]
        with connection.cursor() as cursor:
            for sql, params in statements:
                cursor.execute(sql, params)


class LostRows(RuntimeError):
    """The one statement wrote fewer plays than the moves noted: nothing is kept."""


def writes_together() -> bool:
    """Whether a batch is one statement here (PostgreSQL with client-side binding)."""
    options = connection.settings_dict.get("OPTIONS", {})
    return connection.vendor == "postgresql" and not options.get("server_side_binding")


class _Prepared(psycopg.Cursor):
    """Statements prepared on their first run, their parameters bound by the server."""

    def execute(self, query, params=None, **kwargs):
        super().execute(query, params, prepare=True)
        if self._query is None:  # a prepared run keeps no text: Django's query log reads it
            self._query = SimpleNamespace(query=query.encode(), params=None)
        return self


def prepared_cursor():
    """A Django cursor (query logging and wrappers included) whose statement PostgreSQL
    plans once per connection. The batch's text depends only on which parts it has, so
    each kind is prepared once and planning it again (0.6 ms of PostgreSQL's CPU a move)
    is skipped; Django's own cursors bind on the client, so each run was a new text to
    plan. The database threads keep their connections, and with them what was prepared."""
    connection.ensure_connection()
    return connection._prepare_cursor(_Prepared(connection.connection))


class NeedsLock(Exception):
    """A batch that cannot be written guarded (a game's end, a seat's change):
    the move is made again under the game row's lock."""


class StaleTable(Exception):
    """A guarded batch found the game row changed since the game was cached: nothing was
    written."""


def _write_together(rows: MoveRows, mover_channel: str = "", guard: tuple | None = None) -> None:
    """PostgreSQL: every row of the batch in one statement, its parts chained by data-
    modifying CTEs. Such parts share one snapshot, so rows new in this statement (a new
    deal's hand, a new trick) are found through the ``RETURNING`` of their insert, not by
    a lookup. Rows go in as one array per column (``unnest``): the statement's text
    depends only on which parts it has, so psycopg parses it once, not for every move.
    The statement returns the plays it wrote, checked against those noted: a play that
    found no hand or trick fails the move instead of vanishing. A game won by the batch is
    settled in it too (``rows.settled``: each seat's outcome, its people's stats)."""
    game = rows.loaded.game
    parts: list[str] = []
    params: list = []

    def part(name: str, sql: str, values: list) -> None:
        parts.append(f"{name} AS ({sql})")
        params.extend(values)

    hands, seats_where, game_where = HANDS_OF_GAME, "", ""
    if guard is not None:  # every part below waits on the row's lock and its check
        moves, updated_at = guard
        part("guard", GUARD, [game.pk, moves, moment(updated_at), Game.Status.IN_PROGRESS])
        hands, seats_where = f"{hands} AND {GUARDED}", f" AND {GUARDED}"
        game_where = f" AND {GUARDED}"
    if rows.hands:
        values = [v for hand in rows.hands for v in hand_insert(game, hand)[1]]
        rows_sql = ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows.hands))
        insert = (
            f"{HAND_INSERT_TOGETHER} {rows_sql}"
            if guard is None
            else f"{HAND_INSERT_GUARDED} (VALUES {rows_sql}) AS v WHERE {GUARDED}"
        )
        part("new_hands", f"{insert} RETURNING {HAND_ID_NUMBER}", values)
        hands = f"SELECT id, number FROM new_hands UNION ALL {hands}"
    part("hands", hands, [game.pk])
    tricks = []
    if rows.new_tricks:
        new = [(hand, n, *row) for (hand, n), row in rows.new_tricks.items()]
        part("new_tricks", TRICK_INSERT_TOGETHER, by_column(new, TRICK_KINDS))
        tricks.append(("SELECT id, hand_id, number FROM new_tricks", []))
    if rows.finished:
        done = [(h, n, t.winner, t.points) for (h, n), t in rows.finished.items()]
        part("finished_tricks", TRICK_FINISH_TOGETHER, by_column(done, FINISH_KINDS))
    earlier = sorted({(play[4], play[5]) for play in rows.plays} - set(rows.new_tricks))
    if earlier:
        tricks.append((TRICKS_EARLIER, by_column(earlier, EARLIER_KINDS)))
    if rows.plays:
        part("tricks", " UNION ALL ".join(sql for sql, _ in tricks), [])
        params.extend(v for _, values in tricks for v in values)
        part("plays", PLAYS_TOGETHER, [game.pk, stamp(game), *by_column(rows.plays, PLAY_KINDS)])
    seats, seats_sql, kinds = _seat_changes(rows), SEATS_TOGETHER, SEAT_KINDS
    settle = None
    if rows.loaded.state.winner is not None and game.started_at is not None:
        # won by these moves: each seat's outcome and its people's stats, as seats_settle
        settle = settlement(game, rows.loaded.seats)
        empty = [None, None, None]
        seats = {n: [*seats.get(n, empty), won] for n, won in enumerate(settle.outcomes)}
        seats_sql, kinds = SEATS_SETTLED_TOGETHER, SETTLED_KINDS
    if seats:
        changed = [(number, *row) for number, row in sorted(seats.items())]
        part("seats", seats_sql + seats_where, [*by_column(changed, kinds), game.pk])
    if settle is not None and settle.people:
        stats = STATS_COUNTED_TOGETHER if guard is None else STATS_COUNTED_GUARDED
        part("stats", stats, [settle.winning, settle.people, game.pk])
    rows.settled = settle is not None
    update, values = game_update(game)
    written = "(SELECT count(*) FROM plays)" if rows.plays else "0"
    others, others_params = (
        (OTHERS_PRESENT, [game.pk, mover_channel]) if mover_channel else ("NULL", [])
    )
    if guard is not None:
        # It commits on its own: a count that is short fails the statement itself (a
        # division by zero) instead of being checked once it is kept. Who else is there
        # is read after the lock with a snapshot of its own (migration 0023).
        written = f"1 / ({written} = %s)::integer"
        others = "coins_others_present(%s, %s)" if mover_channel else others
        others_params = [len(rows.plays), *others_params]
    statement = (
        f"WITH {', '.join(parts)} {update}{game_where} RETURNING {written}, {others}",
        params + values + others_params,
    )
    taken = _taken.get()
    if taken is not None:  # sent by the caller (``games/realtime/loop_card.py``)
        taken.append(statement)
        return
    with prepared_cursor() as cursor:
        cursor.execute(*statement)
        row = cursor.fetchone()
    batch_written(rows, row, guard)


def batch_written(rows: MoveRows, row: tuple | None, guard: tuple | None = None) -> None:
    """Check what the batch's statement returned (``row``), and note who else is at the
    table. Raise ``StaleTable`` if a guarded batch found the row changed (nothing was
    written), ``LostRows`` if plays went missing."""
    game = rows.loaded.game
    if row is None:
        raise StaleTable(f"game {game.pk} changed since it was cached")
    count, rows.others_present = row
    if guard is None and count != len(rows.plays):
        raise LostRows(f"game {game.pk}: {count} plays written of {len(rows.plays)}")


_taken: ContextVar[list | None] = ContextVar("batch_taken", default=None)


@contextmanager
def batch_taken() -> Iterator[list[tuple[str, list]]]:
    """Inside, a batch is not sent: its statement (text, parameters) is kept for the
    caller to send on a connection of its own, then to hand its row to ``batch_written``."""
    taken: list[tuple[str, list]] = []
    token = _taken.set(taken)
    try:
        yield taken
    finally:
        _taken.reset(token)


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
