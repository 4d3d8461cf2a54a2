"""Rendering a table for one viewer, and telling a table's sockets that it changed.

Both the page and the WebSocket use the same named partials of ``games/table.html``, so
there is one source of HTML for the board whether it arrives by page load or by push.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.template.loader import render_to_string

from .models import Game
from .presenters import table_context
from .selectors import LoadedGame, game_load, seats_of


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


async def others_watching(layer, group: str, channel: str) -> bool:
    """Whether ``group`` may hold a socket besides ``channel`` (True when unsure).

    A person's own socket gets its board straight after its move, so a table nobody else
    watches (the usual game against bots) need not pay for a broadcast: on Redis one round
    trip instead of four, and no message back to this very process. ``channel`` may have
    left the group already (a socket closing while its bots still play). No race: a socket
    that joins after the count reads the board once the move is committed.
    """
    if isinstance(layer, RedisChannelLayer):
        key = layer._group_key(group)
        connection = layer.connection(layer.consistent_hash(group))
        async with connection.pipeline(transaction=False) as pipe:
            members, mine = await pipe.zcard(key).zscore(key, channel).execute()
        return members - (mine is not None) > 0
    if isinstance(layer, InMemoryChannelLayer):
        members = layer.groups.get(group, {})
        return len(members) - (channel in members) > 0
    return True


def board_context(game: Game, viewer=None, loaded: LoadedGame | None = None) -> dict:
    """Return the table context for ``viewer`` (a user, or None for a spectator).

    Only the viewer's own seat view reaches the context.
    """
    if not game.was_dealt:
        seats = loaded.seats if loaded else seats_of(game)
        context = table_context(game, seats, None)
        context["viewer_is_seated"] = any(s.user_id == getattr(viewer, "pk", None) for s in seats)
        return context
    loaded = loaded or game_load(game)
    seat = loaded.seat_of(viewer)
    view = loaded.state.view_for(seat.number if seat else None)
    context = table_context(game, loaded.seats, view)
    context["viewer_is_seated"] = seat is not None
    return context


def render_board(context: dict, request=None) -> str:
    return render_to_string("games/table.html#board", context, request=request)


def render_message(text: str, level: str = "error") -> str:
    return render_to_string("games/table.html#message", {"message": text, "level": level})


def notify_table(game_id: int, moves: int, drive_bots: bool = False) -> None:
    """Tell every socket at the table (from synchronous code) that the game changed.

    ``drive_bots`` asks the sockets to play a bot's turn if one is due (after a change made
    outside a socket, such as the last seat taken from a page).
    """
    layer = get_channel_layer()
    if layer is not None:
        event = {"type": "table.update", "moves": moves, "drive_bots": drive_bots}
        async_to_sync(layer.group_send)(group_name(game_id), event)
