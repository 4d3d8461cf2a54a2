"""Actions on accounts: signing up, asking for a password reset, and keeping the profile in
step with the user."""

import copy

from django.conf import settings
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from coins_site.monitoring import throttled

from . import throttles
from .backends import PERSON_BACKEND
from .forms import lookalike_error
from .models import Profile
from .reset_mail import worker
from .selectors import cached_profile


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


class SignUpRefused(Exception):
    """Too many accounts were made from this address this hour."""


def sign_up(request: HttpRequest, form):
    """Create the account from a valid sign-up form and log the new user in.

    A sign-up slot of the address is taken first (atomically, before the password is
    hashed): past ``COINS_SIGNUPS_PER_HOUR`` this raises ``SignUpRefused``. The user and its
    lookalike key are written in one transaction: if a lookalike (or the same name) was
    created a moment before, nothing is created, the form gets the error and ``None`` is
    returned. The slot stays taken then (the password was hashed).
    """
    address = throttles.client_address(request)
    allowed = throttles.limit("SIGNUPS_PER_HOUR")
    if throttles.reserve(request, "signup", address, allowed, throttles.HOUR) is False:
        throttles.give_back_all(request)
        throttled("signup")
        raise SignUpRefused
    try:
        with transaction.atomic():
            user = form.save()
    except IntegrityError:
        throttles.forget_reservations(request)
        form.add_error("username", lookalike_error(form.cleaned_data.get("username", "")))
        return None
    throttles.forget_reservations(request)
    # The password was hashed once, by form.save(); no second hash to authenticate.
    login(request, user, backend=PERSON_BACKEND)
    return user


class ResetRefused(Exception):
    """Too many reset requests from this address this hour."""


def request_password_reset(request: HttpRequest, email: str) -> None:
    """Count a reset request and hand the mail to the background sender, within budgets.

    Every address typed costs the same counting and queueing, whether or not an account uses
    it; the lookup and the mail happen in the background (``reset_mail``). Budgets: requests
    per requesting address (past it ``ResetRefused``), and mails per e-mail address from one
    requesting address and in all (past them no mail goes, and the page says so for every
    address alike).
    """
    address = throttles.client_address(request)
    if not _within("reset-from", address, "RESETS_PER_HOUR_FROM_ADDRESS"):
        raise ResetRefused
    mailbox = email.strip().casefold()
    if _within("reset-to-from", (mailbox, address), "RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS") and (
        _within("reset-to", mailbox, "RESETS_PER_HOUR_TO_EMAIL")
    ):
        worker.submit(email, translation.get_language() or settings.LANGUAGE_CODE)


def _within(kind: str, who, setting: str) -> bool:
    """Take an hour's slot of ``kind``; ``False`` (counted) only past the limit: a cache
    outage lets the request through."""
    if throttles.take(kind, who, throttles.limit(setting), throttles.HOUR) is False:
        throttled(kind)
        return False
    return True


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
