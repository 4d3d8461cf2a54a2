"""Making, finding and revoking personal API tokens.

A token is ``coins_`` and 43 random URL-safe characters (256 bits). Only its SHA-256 digest
is stored, so a stolen database holds no usable token; the token is shown once, when made.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import ApiToken, Scope

PREFIX = "coins_"
SHOWN_PREFIX = 12  # characters kept in clear to tell tokens apart ("coins_AbCdEf")
LAST_USE_EVERY = 60  # seconds: the last use is written at most once a minute per token


class TokenRefused(Exception):
    """A token that cannot be made (bad name or scopes); the message is for the person."""


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    secret: str  # shown once


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def clean_scopes(scopes) -> list[str]:
    """Known scopes, each once, in a fixed order; TokenRefused otherwise."""
    if isinstance(scopes, str):
        scopes = [scope.strip() for scope in scopes.split(",") if scope.strip()]
    known = [scope.value for scope in Scope]
    if not scopes or any(scope not in known for scope in scopes):
        raise TokenRefused(
            _("Choose scopes among: %(scopes)s.") % {"scopes": ", ".join(known)}
        )
    return [scope for scope in known if scope in scopes]


def token_create(*, user, name: str, scopes) -> NewToken:
    """Make a token for ``user``; the returned ``secret`` is the only copy of it."""
    name = " ".join(str(name or "").split())
    if not name or len(name) > 60:
        raise TokenRefused(_("Give the token a name of 1 to 60 characters."))
    scopes = clean_scopes(scopes)
    secret = PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        digest=digest_of(secret),
        prefix=secret[:SHOWN_PREFIX],
        scopes=scopes,
    )
    return NewToken(token, secret)


def token_revoke(*, user, token_id) -> bool:
    """Revoke one of ``user``'s tokens (for good); False if there is no such active token."""
    if not str(token_id).isdigit():
        return False
    return bool(
        ApiToken.objects.filter(pk=int(token_id), user=user, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )


def token_find(secret: str) -> ApiToken | None:
    """The active token ``secret`` stands for (with its user), or None; notes its use."""
    if not secret.startswith(PREFIX) or len(secret) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user__profile")
        .filter(digest=digest_of(secret), revoked_at=None, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > LAST_USE_EVERY:
        token.last_used_at = now
        with transaction.atomic():
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def tokens_of(user) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))
