"""``/healthz`` for load balancers and ``/metrics`` for Prometheus (docs/operations.md).

Both are answered by ``OperationsEndpointsMiddleware`` before the rest of the middleware:
no session, no locale, no CSRF, no host check, no redirect to HTTPS. Neither reads the
``Host`` header, and neither answer may be cached.
"""

from __future__ import annotations

import ipaddress
import json
from functools import cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder

from coins_site.proxies import parse_address

from .checks import run_checks


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    """200 when every check passes, else 503; a small JSON body with each check's state and
    time either way."""
    checks = run_checks()
    failing = [name for name, result in checks.items() if not result["ok"]]
    body = {"status": "failing" if failing else "ok", "failing": failing, "checks": checks}
    response = HttpResponse(
        json.dumps(body), content_type="application/json", status=503 if failing else 200
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    """This process's metrics in Prometheus's text format (OpenMetrics when asked for)."""
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    response = HttpResponse(encoder(REGISTRY), content_type=content_type)
    response["X-Content-Type-Options"] = "nosniff"
    return response


def may_read_metrics(request: HttpRequest) -> bool:
    """With the bearer token (``COINS_METRICS_TOKEN``), or from an allowed address
    (``COINS_METRICS_ALLOW``). A request that says it was forwarded (``X-Forwarded-For``)
    counts by address only if a trusted proxy vouched for it (``coins_site.proxies``): else
    a local proxy nobody declared would open the metrics to everyone behind it."""
    token = settings.COINS_METRICS_TOKEN
    if token and constant_time_compare(request.headers.get("Authorization", ""), f"Bearer {token}"):
        return True
    if "HTTP_X_FORWARDED_FOR" in request.META and not vouched_for(request):
        return False
    address = parse_address(request.META.get("REMOTE_ADDR") or "")
    return address is not None and any(address in net for net in allowed_networks())


def vouched_for(request: HttpRequest) -> bool:
    scope = getattr(request, "scope", None) or {}
    return bool(scope.get("coins.forwarded_by"))


@cache
def _networks(entries: tuple[str, ...]) -> tuple:
    try:
        return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)
    except ValueError as error:
        raise ImproperlyConfigured(
            f"COINS_METRICS_ALLOW: {error} (e.g. 127.0.0.0/8,::1,10.1.2.3)"
        ) from error


def allowed_networks() -> tuple:
    return _networks(tuple(settings.COINS_METRICS_ALLOW))
