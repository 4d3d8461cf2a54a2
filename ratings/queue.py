"""Finished games wait in a queue to be rated, off the tables' way.

A game's aftermath (served by a table runner) only writes a ``RatingQueue`` row, in its own
transaction: nothing is lost if the process dies, and the runner never waits for the rating
lock, which a recompute's swap holds for a while. Each runner process runs a ratings lane
(``ratings.lane``) that rates queued games one at a time in the order they ended: it takes
the rating lock without waiting (if a recompute is swapping its rebuilt ratings in, it tries
again later) and a second lock that lets one lane at a time rate, so two lanes never rate two
games out of order. A game is rated once: its queue row goes in the transaction that rates
it, and ``game_rate`` rates a game only once anyway.
"""

from __future__ import annotations

import logging
from functools import partial

from django.db import connection, transaction
from django.db.models import F

from common.kept_rows import row_insert_ignoring
from games.models import Game
from games.realtime.push import notify_table

from .locks import RATING_LOCK
from .models import RatingQueue
from .rows import queue_drop, queue_head
from .services import RATED_STATUSES, game_rate

log = logging.getLogger(__name__)

LANE_LOCK = 0x436F696F  # one lane rates at a time: games are rated in the order they ended
MAX_ATTEMPTS = 5  # a game whose rating failed this often stays queued, left alone (logged)


def game_queue(*, game_id: int, game: Game | None = None) -> None:
    """Queue a finished game for rating (inside its aftermath's transaction); once only.
    Games no rating counts (casual, or closed before their deal) are not queued. ``game``:
    its row as the aftermath locked it, when the caller has it (no statement to read it)."""
    if game is None:
        game = Game.objects.filter(pk=game_id).first()
    counts = game is not None and game.is_rated and game.status in RATED_STATUSES
    if counts and game.started_at is not None:
        row_insert_ignoring(RatingQueue(game_id=game_id, finished_at=game.finished_at))


def queued_rate_next() -> int | None:
    """Rate the queued game that ended first; return its id, or None when none is queued,
    another lane is rating or a recompute is swapping its ratings in (try again later)."""
    return _rate_next()[0]


def _rate_next() -> tuple[int | None, bool]:
    """``queued_rate_next``, and whether to look again at once: another game was queued
    behind this one (read with it), or this one failed and may be tried again. A lane that
    drained the queue sleeps instead of spending a transaction (five statements) on finding
    it empty after every game. A game whose rating fails rolls its transaction back and
    counts the attempt in one of its own: no savepoint around every game for the rare one
    that fails (two statements a game)."""
    rating = None  # the queue row of the game being rated, until it is rated
    try:
        with transaction.atomic():
            if not _lane_locks_try():
                return None, False
            queued = queue_head(MAX_ATTEMPTS)
            if not queued:
                return None, False
            rating = queued[0]  # (game id, attempts)
            game_rate(game_id=rating[0], lock_held=True)
            game_id, rating = rating[0], None
            queue_drop(game_id)
            transaction.on_commit(partial(notify_table, game_id, -1))  # the ratings to show
    except Exception:
        if rating is None:
            raise  # not the game's rating: the lane logs it and tries again later
        # this game only: the lane goes on with the next
        game_id, attempts = rating
        log.exception("Rating game %s failed (attempt %s)", game_id, attempts)
        RatingQueue.objects.filter(game_id=game_id).update(attempts=F("attempts") + 1)
        return game_id, True
    return game_id, len(queued) > 1


def _lane_locks_try() -> bool:
    """Take the rating lock shared (a recompute's swap holds it exclusive) and the lanes' own
    lock, both without waiting, in one statement: False if either is held (the transaction's
    end lets go of the other). SQLite has one writer at a time already."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_try_advisory_xact_lock_shared(%s) AND pg_try_advisory_xact_lock(%s)",
            [RATING_LOCK, LANE_LOCK],
        )
        return cursor.fetchone()[0]


RATE_BATCH = 100  # games rated in one call at most; a lane that rated this many looks again at once


def queued_rate(limit: int = RATE_BATCH) -> int:
    """Rate queued games until none is left to rate now (at most ``limit``); return how many
    were taken. Tests drain the queue with it, as a lane would."""
    taken, again = 0, True
    while again and taken < limit:
        game_id, again = _rate_next()
        if game_id is None:
            break
        taken += 1
    return taken
