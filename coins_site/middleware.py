"""Security headers Django 5.2 does not set itself, and refusing control characters."""

from __future__ import annotations

import re

from django.http import HttpResponse, HttpResponseBadRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation


class ContentSecurityPolicyMiddleware:
    """Send a Content-Security-Policy that allows only this site's own scripts, styles,
    images, fonts and sockets: no inline script or style, no plugins, no framing. An
    injected ``<script>`` or ``onerror=`` would not run even if escaping ever failed.

    The admin's pages are left to Django (its widgets use inline scripts)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not request.path.startswith("/admin/"):
            response.headers.setdefault("Content-Security-Policy", policy_for(request))
        return response


def policy_for(request) -> str:
    host = request.get_host()
    return "; ".join(
        (
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            f"connect-src 'self' ws://{host} wss://{host}",
            "form-action 'self'",
            "frame-ancestors 'none'",
            "base-uri 'self'",
            "object-src 'none'",
        )
    )


# C0 control characters: none anywhere in a path or a field's name; in a field's value, tab,
# line feed and carriage return are text (a text area's lines), the others are not.
CONTROL = re.compile(r"[\x00-\x1f]")
CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


class RefuseControlCharactersMiddleware:
    """Answer 400 with a short page to a request whose path, query string or form fields
    carry NUL or another control character, before any view or database work: PostgreSQL
    refuses NUL in text (a 500 otherwise), and no page of this site takes the others.
    Uploaded files' contents are not looked at."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if carries_control_characters(request):
            return refusal(request)
        return self.get_response(request)


def carries_control_characters(request) -> bool:
    if CONTROL.search(request.path):
        return True
    fields = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        fields.append(request.POST)  # parsed once: CSRF and the view reuse it
    return any(
        CONTROL.search(name) or any(CONTROL_IN_TEXT.search(value) for value in values)
        for form in fields
        for name, values in form.lists()
    )


def refusal(request) -> HttpResponse:
    """The 400 page, in the visitor's language (cookie or browser: nothing else has run)."""
    with translation.override(translation.get_language_from_request(request)):
        html = render_to_string("control_characters.html", {"home": reverse("home")})
    return HttpResponseBadRequest(html)
