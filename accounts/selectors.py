"""Read-only questions about accounts that the rest of the site asks.

Both functions read ``user.profile`` through Django's related-object cache: no query when the
profile was ``select_related`` or already read during the request, one query otherwise (the
answer, including "no profile", is then cached on that user instance).
"""

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist

from .models import Profile


def cached_profile(user) -> Profile | None:
    """The user's profile, or ``None`` for anonymous users and users without one."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.profile
    except (ObjectDoesNotExist, AttributeError):
        return None


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
