"""Actions on accounts: signing up and keeping the profile in step with the user."""

import copy

from django.conf import settings
from django.contrib.auth import authenticate, login
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from .models import Profile
from .selectors import cached_profile

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def profile_for(user) -> Profile:
    """The user's profile, created if the user predates profiles; cached on ``user``."""
    profile = cached_profile(user)
    if profile is None:
        profile, _created = Profile.objects.get_or_create(user=user)
        user.profile = profile
    return profile


def profile_for_editing(user) -> Profile:
    """A copy of the user's profile for a form to edit.

    A form writes submitted values onto its instance even when it then refuses them; editing
    a copy keeps the cached profile (shown in the page header) as it is in the database.
    """
    return copy.copy(profile_for(user))


def sign_up(request: HttpRequest, form):
    """Create the account from a valid sign-up form and log the new user in."""
    user = form.save()
    # Through the configured backends, so login() records the one that accepts the user.
    authenticated = authenticate(
        request, username=user.get_username(), password=form.cleaned_data["password1"]
    )
    if authenticated is not None:
        login(request, authenticated)
    else:
        login(request, user, backend=MODEL_BACKEND)
    return user


def save_profile(request: HttpRequest, form) -> Profile:
    """Save a valid profile form; a newly chosen language applies from this response on."""
    profile = form.save()
    if profile.language:
        translation.activate(profile.language)
        request.LANGUAGE_CODE = translation.get_language()
    return profile


def remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Keep ``language`` in the language cookie too, so it outlives the session."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response
