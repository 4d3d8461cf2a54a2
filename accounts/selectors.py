"""Read-only questions about accounts that the rest of the site asks.

They read the user's profile through Django's related-object cache: no query when the
profile was ``select_related`` or already read during the request, one query otherwise (the
answer, including "no profile", is then cached on that user instance, as ``user.profile``
caches it). That one query is a statement written once (``common.kept_rows``): every socket
opening and most pages ask for the viewer's language, and the ORM's reverse one-to-one lookup
cost 3% of a server's CPU per socket opened (docs/benchmarks.md, twenty-seventh sitting).
"""

from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from common.kept_rows import column, column_list, row_instance, table_name

from .models import Profile


def cached_profile(user) -> Profile | None:
    """The user's profile, or ``None`` for anonymous users and users without one."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    related = get_user_model().profile.related
    try:
        if not related.is_cached(user):
            related.set_cached_value(user, _profile_row(user))
        return related.get_cached_value(user)
    except AttributeError:  # not a model instance (a stand-in user)
        return None


def _profile_row(user) -> Profile | None:
    """The user's profile row (with ``profile.user`` cached), or None."""
    with connection.cursor() as cursor:
        cursor.execute(_profile_lookup(connection.vendor), [user.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    profile = row_instance(Profile, connection, row)
    Profile.user.field.set_cached_value(profile, user)
    return profile


@cache
def _profile_lookup(vendor: str) -> str:
    key = column(Profile, "user")
    return f"SELECT {column_list(Profile)} FROM {table_name(Profile)} WHERE {key} = %s"


def public_name(user) -> str:
    """The name other players see: the display name if set, else the username."""
    profile = cached_profile(user)
    display_name = profile.display_name.strip() if profile is not None else ""
    if display_name:
        return display_name
    return user.get_username() if user is not None else ""


def preferred_language(user) -> str:
    """The user's chosen language code if it is one the site offers, else ``""``."""
    profile = cached_profile(user)
    language = profile.language if profile is not None else ""
    return language if language in dict(settings.LANGUAGES) else ""


def wants_turn_sound(user) -> bool:
    """Whether the user asked for a sound when their turn comes (off by default)."""
    profile = cached_profile(user)
    return profile is not None and profile.turn_sound


def is_bot_account(user) -> bool:
    """Whether ``user`` is a bot account (a program playing through the Bot API)."""
    profile = cached_profile(user)
    return profile is not None and profile.is_bot
