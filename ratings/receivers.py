"""Rate each game once it is over, away from the move that ended it.

Rating a game reads and writes the rating rows of its three players (and of bot levels,
which every game against that level shares), so on PostgreSQL it is done after the move's
reply, by one background thread, one game at a time: the last move of a game comes back as
fast as any other, and games ending together never wait on each other's rating rows.

A server stopped between a game's last move and its rating leaves the game unrated, so the
first rating a process does in the background starts by rating any such game.
"""

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection
from django.dispatch import receiver

from games.signals import game_over
from games.table_updates import notify_table

from .services import game_rate, rate_unrated_games

log = logging.getLogger(__name__)

_rater = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ratings")


@receiver(game_over)
def rate_finished_game(sender, game_id: int, **kwargs) -> None:
    # SQLite takes one writer at a time: there the move's own thread rates the game.
    if settings.COINS_RATE_IN_BACKGROUND and connection.vendor != "sqlite":
        _rater.submit(_rate_in_background, game_id)
    else:
        _rate(game_id)


def wait_for_ratings() -> None:
    """Return once every game handed to the background rater so far is rated."""
    _rater.submit(lambda: None).result()


def _rate(game_id: int) -> None:
    try:
        game_rate(game_id=game_id)
    except Exception:  # a rating failure must never break play; recompute repairs it
        log.exception("Could not rate game %s", game_id)


def _rate_in_background(game_id: int) -> None:
    global _swept
    try:
        if not _swept:  # the first game this process rates: first rate those left behind
            _swept = True
            _rate_left_behind()
        _rate(game_id)
        notify_table(game_id, -1)  # the result panels show the rating changes now
    finally:
        connection.close()  # this thread's connection goes back to the pool between games


def _rate_left_behind() -> None:
    try:
        rate_unrated_games()
    except Exception:  # as for one game: recompute repairs it
        log.exception("Could not rate the games left unrated")


_swept = False  # whether this process has rated the games a stopped server left unrated
