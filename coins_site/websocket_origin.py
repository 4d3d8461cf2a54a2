"""Which pages may open the site's WebSockets: its own, scheme, host and port alike.

Channels' ``AllowedHostsOriginValidator`` compares only the Origin's host name with
``ALLOWED_HOSTS``, so a page at http://localhost:9999 (another program on the player's
machine) or over plain http could open a socket with the player's cookies. Here the Origin
must be the socket's own origin (the scheme the page used, and the Host it asked for, which
must be an allowed host) or one listed in ``CSRF_TRUSTED_ORIGINS``, as Django's CSRF check
asks of a form.
"""

from __future__ import annotations

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)


def origin_allowed(scope: dict) -> bool:
    headers = {name.lower(): value.decode("latin-1") for name, value in scope.get("headers", [])}
    origin, host = headers.get(b"origin", "").rstrip("/"), headers.get(b"host", "")
    if not origin or origin == "null":
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return False
    return origin.lower() == f"{page_scheme(scope, headers)}://{host}".lower()


def page_scheme(scope: dict, headers: dict) -> str:
    """The scheme of the page that opened the socket: https for wss, or behind an HTTPS
    proxy that says so in the header Django trusts (``SECURE_PROXY_SSL_HEADER``)."""
    if scope.get("scheme") == "wss":
        return "https"
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy_header:
        name, secure = proxy_header
        header = name.removeprefix("HTTP_").lower().replace("_", "-").encode("latin-1")
        if headers.get(header, "").split(",")[0].strip() == secure:
            return "https"
    return "http"
