"""The table socket's user, read in the socket's first database thread hop rather than in
a hop of its own.

Channels' ``AuthMiddleware`` reads the session and the user before the consumer starts, in a
thread hop of their own (and through asgiref's one thread-sensitive thread, shared by every
socket opening at once). A table socket's ``connect`` hops to a database thread anyway
(``socket_opening``: the language, the request and the access check), so the user is read
there: one hop fewer per socket opened, a cost of every game's turnover (docs/benchmarks.md,
issue 31). The reading itself is Channels' own (``get_user``: the
session's user, its backend, the session hash), unchanged.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware, UserLazyObject, get_user
from django.utils.functional import empty

_channels_user = get_user.func  # Channels' reading, without its thread hop


class UserReadOnOpening(AuthMiddleware):
    """``AuthMiddleware`` that leaves ``scope["user"]`` unread (touching it raises, as
    Channels' does before it is ready) until the consumer's first hop calls ``read_user``."""

    async def resolve_scope(self, scope):
        return None


def read_user(scope: dict):
    """In a database thread: ``scope``'s user, read from its session as Channels'
    ``AuthMiddleware`` reads it (once; a user already there is kept as it is)."""
    user = scope.get("user")
    if isinstance(user, UserLazyObject) and user._wrapped is empty:
        user._wrapped = _channels_user(scope)
    return user
