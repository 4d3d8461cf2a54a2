"""What a player's history and profile read, kept on the rows as games start and end.

Each seat carries copies of its game's start, target, whether bots sat at it and, once it is
over, its outcome for that seat (``Seat.started_at`` and the rest), so a page of a player's
history is one slice of an index on the seats; each person's ended games are counted in
``PlayerStats``. ``seats_dealt`` runs when a game is dealt (and when a person takes a bot's
seat before the first card), ``seats_settle`` when it ends, both under the game's lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.db import connection

from common.kept_rows import column, rows_insert_ignoring, table_name
from games.models import Game, PlayerStats, Seat

WON, LOST, ABANDONED = "won", "lost", "abandoned"


def seats_dealt(game: Game) -> None:
    """Copy what the history filters on from ``game`` (just dealt) to its seats, and
    whether bots sit at it to the game (the admin's filter)."""
    game.with_bots = Seat.objects.filter(game=game).exclude(bot="").exists()
    Seat.objects.filter(game=game).update(
        started_at=game.started_at, target=game.target, with_bots=game.with_bots
    )
    Game.objects.filter(pk=game.pk).update(with_bots=game.with_bots)


def seats_dealt_unsaved(game: Game, seats: list[Seat]) -> None:
    """What ``seats_dealt`` writes, set on a new table's ``game`` and ``seats`` before they
    are first saved (``games.table.lifecycle.start_new_game`` inserts them so)."""
    game.with_bots = any(seat.bot for seat in seats)
    for seat in seats:
        seat.started_at, seat.target, seat.with_bots = game.started_at, game.target, game.with_bots


def seats_settle(game: Game, seats: list[Seat] | None = None) -> None:
    """Write each seat's outcome of ``game`` (over) and count it in its people's stats, once:
    three statements, each written once (``common.kept_rows``: built by the ORM, the three
    took more CPU than the rest of the game's last card; the caller may pass the game's
    ``seats`` it holds already). A game won by a card on PostgreSQL is settled in its
    card's one statement instead (``games.table.move_rows``, with ``settlement``)."""
    if game.started_at is None or not game.is_over:
        return
    finished = game.status == Game.Status.FINISHED
    winner = game.winner_seat if finished else None
    if not _outcomes_written(game.pk, winner, LOST if finished else ABANDONED):
        return  # settled already
    if seats is None:
        seats = list(Seat.objects.filter(game=game))
    people, winning = _people(seats, winner)
    if not people:
        return
    rows_insert_ignoring([PlayerStats(user_id=user) for user in people])
    _stats_counted(people, finished, winning)


@dataclass(frozen=True)
class Settlement:
    """What ``seats_settle`` writes for a game won by a card: each seat's outcome (by seat
    number), the people at it, and the one of them who won (None: a bot won)."""

    outcomes: list[str]
    people: list[int]
    winning: int | None


def settlement(game: Game, seats: list[Seat]) -> Settlement:
    """``seats_settle``'s rows for ``game``, just won by a card, as values to write."""
    winner = game.winner_seat
    people, winning = _people(seats, winner)
    outcomes = [WON if number == winner else LOST for number in range(len(seats))]
    return Settlement(outcomes, people, winning)


def _people(seats: list[Seat], winner: int | None) -> tuple[list[int], int | None]:
    """The people seated (each once, sorted) and the one in the ``winner`` seat, if any."""
    people = {seat.user_id: seat.number for seat in seats if seat.user_id is not None}
    return sorted(people), next((u for u, number in people.items() if number == winner), None)


def _outcomes_written(game_id: int, winner: int | None, others: str) -> int:
    """Each seat not settled yet: won if it is ``winner``'s, else ``others``; how many."""
    with connection.cursor() as cursor:
        cursor.execute(_outcomes_statement(connection.vendor), [winner, WON, others, game_id, ""])
        return cursor.rowcount


@cache
def _outcomes_statement(vendor: str) -> str:
    outcome, number = column(Seat, "outcome"), column(Seat, "number")
    return (
        f"UPDATE {table_name(Seat)} SET {outcome} = CASE WHEN {number} = %s THEN %s ELSE %s END"
        f" WHERE {column(Seat, 'game')} = %s AND {outcome} = %s"
    )


def _stats_counted(people: list[int], finished: bool, winner: int | None) -> None:
    """One more game finished (won by ``winner``, if one of them) or abandoned for each."""
    with connection.cursor() as cursor:
        statement = _stats_statement(connection.vendor, len(people), finished)
        cursor.execute(statement, ([winner] if finished else []) + people)


@cache
def _stats_statement(vendor: str, people: int, finished: bool) -> str:
    def more(name: str) -> str:
        return f"{column(PlayerStats, name)} = {column(PlayerStats, name)} + "

    user = column(PlayerStats, "user")
    counted = (
        f"{more('finished')}1, {more('won')}CASE WHEN {user} = %s THEN 1 ELSE 0 END"
        if finished
        else f"{more('abandoned')}1"
    )
    return (
        f"UPDATE {table_name(PlayerStats)} SET {counted}"
        f" WHERE {user} IN ({', '.join(['%s'] * people)})"
    )
