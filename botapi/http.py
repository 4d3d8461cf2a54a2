"""The API's door: Bearer tokens (never session cookies), JSON errors, and the method check.

Every answer that is not a success is ``{"error": "..."}`` with its status (429 adds
``retry_after``, in seconds). A request is judged by its token alone: a signed-in browser
that calls the API without a token gets a 401, and no CSRF token is asked for (a cross-site
page cannot set the ``Authorization`` header).
"""

from __future__ import annotations

import json
from functools import wraps

from django.http import JsonResponse
from django.http.request import RawPostDataException
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.selectors import is_bot_account

from .models import ApiToken
from .tokens import token_find

MAX_BODY = 4096  # bytes: the largest JSON body the API reads


class ApiError(Exception):
    """A refusal with its HTTP status; the message is for the program's author."""

    def __init__(self, status: int, message: str, retry_after: int | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    def response(self) -> JsonResponse:
        body = {"error": str(self)}
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        response = JsonResponse(body, status=self.status)
        if self.retry_after is not None:
            response["Retry-After"] = str(self.retry_after)
        if self.status == 401:
            response["WWW-Authenticate"] = 'Bearer realm="coins"'
        return response


def authenticate(request, scope: str, *, bot: bool = False) -> ApiToken:
    """The request's active token, holding ``scope`` (and a bot account's, if ``bot``);
    ApiError 401 or 403 otherwise."""
    header = request.headers.get("Authorization", "")
    kind, _space, secret = header.partition(" ")
    if kind.lower() != "bearer" or not secret.strip():
        raise ApiError(401, _("Send your token: Authorization: Bearer <token>."))
    token = token_find(secret.strip())
    if token is None:
        raise ApiError(401, _("That token is not valid (wrong or revoked)."))
    if scope not in token.scopes:
        raise ApiError(403, _("This token lacks the %(scope)s scope.") % {"scope": scope})
    if bot and not is_bot_account(token.user):
        raise ApiError(
            403,
            _("Only bot accounts play through the API: POST /api/bot/account/upgrade first."),
        )
    return token


def json_body(request) -> dict:
    """The request's JSON object (an empty body is ``{}``); ApiError 400 otherwise (a form
    body already read as a form, too)."""
    try:
        request.body  # noqa: B018 (a multipart form read before is gone)
    except RawPostDataException:
        raise ApiError(400, _("The body is not valid JSON.")) from None
    if not request.body:
        return {}
    if len(request.body) > MAX_BODY:
        raise ApiError(400, _("The body is too large."))
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, _("The body is not valid JSON.")) from None
    if not isinstance(data, dict):
        raise ApiError(400, _("The body must be a JSON object."))
    return data


def endpoint(method: str, scope: str, *, bot: bool = False):
    """A synchronous API view: ``view(request, token, **kwargs)`` answers with data (200),
    or a ``(status, data)`` pair; ApiError becomes its JSON refusal."""

    def wrap(view):
        @csrf_exempt
        @wraps(view)
        def api_view(request, **kwargs):
            try:
                if request.method != method:
                    raise ApiError(405, _("Use %(method)s.") % {"method": method})
                token = authenticate(request, scope, bot=bot)
                answer = view(request, token, **kwargs)
            except ApiError as error:
                return error.response()
            status, data = answer if isinstance(answer, tuple) else (200, answer)
            return JsonResponse(data, status=status)

        return api_view

    return wrap
