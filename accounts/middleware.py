"""Serve logged-in users in the language they chose in their profile; answer "busy" when the
server cannot take on a password hash (or a reset mail) right now."""

from datetime import timedelta

from django.shortcuts import render
from django.utils import timezone, translation

from coins_site.monitoring import throttled

from . import throttles
from .hashers import Busy, hashing_for
from .models import Profile
from .selectors import cached_profile, preferred_language

RETRY_AFTER_SECONDS = 2


class PreferredLanguageMiddleware:
    """Activate the logged-in user's preferred language for the request.

    Goes after ``LocaleMiddleware`` (which picked the language from the URL, cookie or
    browser) and ``AuthenticationMiddleware``. Anonymous users and a blank preference are
    left alone. Reading the preference loads the profile once (one query) and caches it on
    ``request.user``, so the header's ``public_name`` and the views reuse it for free.
    ``LocaleMiddleware`` then sends the ``Content-Language`` of the activated language.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = preferred_language(user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class BusyMiddleware:
    """Tell the hasher whose request it hashes for (its address, for the per-address share
    of the hashing slots); turn ``Busy`` (too many password hashes at once in this process,
    or a full reset-mail queue) into a page that says so: 503 with ``Retry-After``. The
    slots of the abuse limits the request took are given back, since the work it was
    refused did not happen."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Whose hash this request's password checks are, for the per-address share of the
        # hashing slots (a context variable: it follows the request into sync code).
        token = hashing_for.set(throttles.client_address(request))
        try:
            return self.get_response(request)
        finally:
            hashing_for.reset(token)

    def process_exception(self, request, exception):
        if not isinstance(exception, Busy):
            return None
        throttles.give_back_all(request)
        throttled(exception.limit)
        response = render(request, "accounts/busy.html", status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


SEEN_EVERY = timedelta(minutes=1)


class SeenMiddleware:
    """Note when a logged-in person was last served a page, for friends to see who is
    online: one UPDATE a minute at most, none on other requests (the profile is already
    loaded for the language)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            profile = cached_profile(user)
            now = timezone.now()
            if profile is not None and (
                profile.last_seen_at is None or now - profile.last_seen_at >= SEEN_EVERY
            ):
                Profile.objects.filter(pk=profile.pk).update(last_seen_at=now)
                profile.last_seen_at = now
        return self.get_response(request)
