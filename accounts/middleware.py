"""Serve logged-in users in the language they chose in their profile."""

from django.utils import translation

from .selectors import preferred_language


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
