"""Telling a table's sockets (and a person's) that something changed, from synchronous code:
a notice through the channel layer, never a board (each socket renders its own). A layer that
is down costs the sockets the notice, not the change: pages ask again after a silence.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.models import Seat
from games.realtime.channels_adapter import others_watching, retrying

log = logging.getLogger(__name__)


# -- the Bot API's game streams: a layer of their own (pub/sub on Redis) --------------------

_programs_at: dict[int, bool] = {}  # game id -> whether a program (bot account) is seated
PROGRAMS_KEPT = 20_000  # games remembered per process; forgotten ones are looked up again


def stream_alias() -> str:
    """The channel layer the game streams wake on: ``COINS_STREAM_LAYER`` where the settings
    name it, else the sockets' own."""
    alias = getattr(settings, "COINS_STREAM_LAYER", "default")
    return alias if alias in settings.CHANNEL_LAYERS else "default"


def programs_seen(game_id: int, seated: bool) -> None:
    """Remember whether a program sits at ``game_id`` (its seats are loaded anyway when a
    move commits): only such tables have game streams to wake."""
    if len(_programs_at) >= PROGRAMS_KEPT:
        _programs_at.clear()
    _programs_at[game_id] = seated


def _programs_seated(game_id: int) -> bool:
    """Whether a program sits at the table (synchronous: asks the database once per game
    and process when no move has told)."""
    seated = _programs_at.get(game_id)
    if seated is None:
        seated = Seat.objects.filter(game_id=game_id, user__profile__is_bot=True).exists()
        programs_seen(game_id, seated)
    return seated


async def tell_streams(game_id: int, event: dict) -> None:
    """Wake the game streams of ``game_id`` (if any can exist: True when unsure). They read
    the database themselves, so a lost wake costs a stream its next keepalive, never a
    line."""
    alias = stream_alias()
    if alias == "default" or not _programs_at.get(game_id, True):
        return  # the sockets' message wakes them, or no program sits there
    try:
        await retrying(get_channel_layer(alias).group_send, group_name(game_id), event)
    except Exception as error:
        log.warning("Could not wake the game streams of table %s: %s", game_id, error)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group(user_id: int) -> str:
    """Every table socket of one person (closed when they log out)."""
    return f"user-{user_id}"


def end_user_sockets(user_id: int) -> None:
    """Close every table socket of this person: they logged out or changed their password,
    so nothing may go on acting for them on a socket opened before."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "session.end"})
    except Exception as error:
        log.warning("Could not close the sockets of user %s: %s", user_id, error)


def notify_table(game_id: int, moves: int, skip: str = "", others: bool | None = None) -> None:
    """Tell every socket at the table (from synchronous code) that the game changed:
    ``moves`` is its new move count, or -1 for a change that is not a move.

    ``skip`` is a socket that shows the change itself (the mover's): when no other socket
    watches, nothing is broadcast. ``others`` says whether another socket has a presence
    row at the table, as the move's own statement found it (None: not known, the channel
    layer is asked). A channel layer that is down (Redis restarting) costs the sockets
    this update, not the change: pages ask again after a silence. Inside ``notices_kept``
    the notice is kept for the caller to send instead.
    """
    kept = _kept_notices.get()
    if kept is not None:
        kept.append((game_id, moves, skip, others))
        return
    if get_channel_layer() is None:
        return
    _programs_seated(game_id)  # known to ``tell_streams`` from here on
    try:
        async_to_sync(tell_table)(game_id, moves, skip, others)
    except Exception as error:  # called where it cannot wait (an event loop's own thread)
        log.warning("Could not tell the sockets of table %s: %s", game_id, error)


async def tell_table(game_id: int, moves: int, skip: str = "", others: bool | None = None) -> None:
    """``notify_table`` from an event loop: a socket's move tells the table from the loop
    it runs on, with no hop from its database thread back to the loop and back."""
    layer = get_channel_layer()
    if layer is None:
        return
    event = {"type": "table.update", "moves": moves}
    await tell_streams(game_id, event)
    try:
        if skip and not await _others_listening(layer, game_id, skip, others):
            return
        await retrying(layer.group_send, group_name(game_id), event)
    except Exception as error:  # the change is committed; a lost update is asked for again
        log.warning("Could not tell the sockets of table %s: %s", game_id, error)


async def _others_listening(layer, game_id: int, skip: str, others: bool | None) -> bool:
    """Whether anything besides the socket ``skip`` may hear the table's group: another
    socket (by its presence row, else by asking the layer) or a program's game stream,
    which joins the group without a presence row (True when unsure)."""
    if others is None:
        return await retrying(others_watching, layer, group_name(game_id), skip)
    return others or _programs_at.get(game_id, True)


_kept_notices: ContextVar[list | None] = ContextVar("kept_table_notices", default=None)


@contextmanager
def notices_kept() -> Iterator[list[tuple[int, int, str]]]:
    """Keep the table notices that changes made inside would send (game, moves, skip), for
    a socket to send with ``tell_table`` once it has sent its own board."""
    kept: list[tuple[int, int, str]] = []
    token = _kept_notices.set(kept)
    try:
        yield kept
    finally:
        _kept_notices.reset(token)


def announce_chat(game_id: int, message: dict) -> None:
    """Show a message said from a page (not a socket) on the table's sockets."""
    layer = get_channel_layer()
    if layer is None:
        return
    _programs_seated(game_id)
    event = {"type": "table.chat", "message": message, "sender": ""}
    async_to_sync(tell_streams)(game_id, event)
    try:
        async_to_sync(layer.group_send)(group_name(game_id), event)
    except Exception as error:  # the message is stored: pages show it when they load
        log.warning("Could not tell the sockets of table %s: %s", game_id, error)
