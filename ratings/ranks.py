"""A board's listed lines with their ranks, kept as rows (``RankedLine``).

Counting the lines above a page to number it, and counting every line to say "of 20,000",
cost what the board's size does; a page reached by number (``?page=400``) sorted every line.
Here the listed lines are ranked in one statement (``ROW_NUMBER()`` over the board's order,
inserted into ``RankedLine``) and the count kept on the board; a page is then a range of
ranks on an index, whatever its number.

The ranked copy trails the live standings by at most ``COINS_STANDINGS_REFRESH`` seconds
(a second per thousand lines on a bigger board) while the table runners live: they re-rank
a board whose rating events moved on, in their idle time. If none does, the first page read
after ``COINS_STANDINGS_STALE`` seconds ranks it itself, and a board never ranked (new,
redefined, an exclusion added) is ranked at once. On PostgreSQL only the ranks whose line
changed are written.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Max
from django.db.models.expressions import Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from .models import (
    Leaderboard,
    RankedLine,
    RatingEvent,
)
from .rows import boards_kept

COLUMNS = (
    "leaderboard_id",
    "rank",
    "rating_id",
    "user_id",
    "bot",
    "mu",
    "sigma",
    "games",
    "wins",
    "last_played",
)


def latest_event() -> int:
    """The newest rating event's id: the version of every board's standings."""
    return RatingEvent.objects.aggregate(latest=Max("pk"))["latest"] or 0


def is_behind(board: Leaderboard, latest: int, *, older_than: float) -> bool:
    """Whether ``board``'s ranks miss a change and were taken ``older_than`` seconds ago."""
    if board.ranked_at is None:
        return True
    old = board.ranked_at <= timezone.now() - timedelta(seconds=older_than)
    return old and board.ranked_through != latest


def _ranked_select(board: Leaderboard):
    from .selectors import standings  # the listed lines: one rule for every reader

    return (
        standings(board)
        .select_related(None)
        .annotate(rank=Window(RowNumber(), order_by=[F("ordinal").desc(), F("rating_id").desc()]))
        .values_list(*COLUMNS)
    )


_TABLE = connection.ops.quote_name(RankedLine._meta.db_table)
_COLUMNS = ", ".join(connection.ops.quote_name(column) for column in COLUMNS)
_CHANGED = ", ".join(f"EXCLUDED.{connection.ops.quote_name(column)}" for column in COLUMNS[2:])


def _ranked_sql(board: Leaderboard):
    return _ranked_select(board).query.sql_with_params()


def _ranks_upsert(board: Leaderboard) -> int:
    """PostgreSQL: write only the ranks whose line changed (a game moves a few lines, and
    shifts those between their old and new places), in one statement; return the count."""
    sql, params = _ranked_sql(board)
    line = RankedLine._meta.db_table
    mine = ", ".join(f"{line}.{connection.ops.quote_name(c)}" for c in COLUMNS[2:])
    updates = ", ".join(
        f"{connection.ops.quote_name(c)} = EXCLUDED.{connection.ops.quote_name(c)}"
        for c in COLUMNS[2:]
    )
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = '64MB'")  # sort the board in memory, not on disk
        cursor.execute(
            f"WITH ranked AS ({sql}), written AS ("
            f"INSERT INTO {_TABLE} ({_COLUMNS}) SELECT {_COLUMNS} FROM ranked "
            f"ON CONFLICT (leaderboard_id, rank) DO UPDATE SET {updates} "
            f"WHERE ({mine}) IS DISTINCT FROM ({_CHANGED}) RETURNING 1) "
            "SELECT COUNT(*) FROM ranked",
            params,
        )
        return cursor.fetchone()[0]


@transaction.atomic
def ranks_refresh(board: Leaderboard, *, wait: bool = True) -> bool:
    """Rank ``board``'s listed lines anew (one statement) and keep their count; readers see
    the old ranks until it commits. One ranker a board at a time: with ``wait`` off, a board
    being ranked elsewhere is left to it (returns False)."""
    locked = Leaderboard.objects.select_for_update(skip_locked=not wait).filter(pk=board.pk)
    if not locked.exists():
        return False
    through = latest_event()  # before the read: a game rated meanwhile leaves it behind
    if connection.vendor == "postgresql":
        lines = _ranks_upsert(board)
    else:  # SQLite: small boards, rewritten
        RankedLine.objects.filter(leaderboard=board).delete()
        sql, params = _ranked_sql(board)
        with connection.cursor() as cursor:
            cursor.execute(f"INSERT INTO {_TABLE} ({_COLUMNS}) {sql}", params)
            lines = cursor.rowcount
    RankedLine.objects.filter(leaderboard=board, rank__gt=lines).delete()
    board.lines, board.ranked_at, board.ranked_through = lines, timezone.now(), through
    Leaderboard.objects.filter(pk=board.pk).update(
        lines=board.lines, ranked_at=board.ranked_at, ranked_through=through
    )
    return True


def ranks_for_reading(board: Leaderboard) -> None:
    """Before a page of ``board``: rank it if it never was, or if it is behind and no runner
    re-ranked it for ``COINS_STANDINGS_STALE`` seconds."""
    if is_behind(board, latest_event(), older_than=settings.COINS_STANDINGS_STALE):
        ranks_refresh(board)


LINES_A_SECOND = 1000  # a big board waits a second per thousand lines between rankings


def refresh_after(board: Leaderboard) -> float:
    """How long a runner lets ``board`` trail: ``COINS_STANDINGS_REFRESH`` seconds, longer for
    a board so big that ranking it often would cost more than it shows (100 s at 100,000)."""
    return max(settings.COINS_STANDINGS_REFRESH, board.lines / LINES_A_SECOND)


def ranks_refresh_due() -> int:
    """A runner's idle work: re-rank the open boards that trail by ``refresh_after``
    (skipping those another runner is ranking)."""
    boards = boards_kept()  # a statement written once: every runner asks every second
    if not boards:
        return 0
    latest = latest_event()
    done = 0
    for board in boards:
        if is_behind(board, latest, older_than=refresh_after(board)):
            done += ranks_refresh(board, wait=False)
    return done


def ranks_forget(board_id: int) -> None:
    """The board's listed lines changed by its definition or exclusions: rank it again
    before its next page."""
    Leaderboard.objects.filter(pk=board_id).update(ranked_at=None)
