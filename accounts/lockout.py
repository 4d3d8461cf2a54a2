"""Log-in lock-out by account AND address, decided before any password is hashed.

``LoginGateBackend`` is the first authentication backend, so it runs for the site's log-in,
the admin's and any other ``authenticate()`` with a request. It atomically takes a failure
slot for the pair (username, address) and one for the address:

- 5 (``AXES_FAILURE_LIMIT``) wrong passwords for one account from one address pause that pair
  for 15 minutes (``AXES_COOLOFF_TIME``). The same account from another address is not
  affected, so an attacker's failures never lock out a person who logs in from elsewhere.
- 20 (``COINS_LOGIN_FAILURES_PER_ADDRESS``) wrong passwords from one address, over every
  name, pause that address (high enough for an office behind one NAT).

Past either limit the request is refused before hashing and without a database write (the
lock-out page, 429). A successful log-in clears the pair's failures and gives its address
slot back. django-axes still records each failure in the database, with the same lock-out
parameters (the pair), and is what decides if the cache is down.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.dispatch import receiver
from django.shortcuts import render
from django.utils import timezone

from coins_site.monitoring import throttled

from . import throttles

PAIR = "login"  # the limit names, as counted by coins_site.monitoring.throttled
ADDRESS = "login-address"
REFUSED_BY = "coins_refused_by"  # the request attribute naming the limit that refused it


def address_limit() -> int:
    return throttles.limit("LOGIN_FAILURES_PER_ADDRESS")


def take_password_slots(request, kind: str, who) -> str | None:
    """Take a failure slot of ``kind`` for ``who`` and one for the request's address before a
    password is checked. Returns the name of the limit that refuses the request, or ``None``
    to go on. If the cache is down, nothing is taken and the address limit is read from
    django-axes's records instead."""
    address = throttles.client_address(request)
    window = throttles.cool_off_seconds()
    own_ok = throttles.reserve(request, kind, who, settings.AXES_FAILURE_LIMIT, window)
    address_ok = throttles.reserve(request, ADDRESS, address, address_limit(), window)
    if own_ok is None or address_ok is None:
        throttles.give_back_all(request)
        return ADDRESS if recorded_failures(address) >= address_limit() else None
    if own_ok and address_ok:
        return None
    throttles.give_back_all(request)
    return kind if not own_ok else ADDRESS


def password_right(request) -> None:
    """The password was right: forget the failures of the slot's own kind (the pair, the
    account), give the address slot back."""
    for kind, who in throttles.reserved(request):
        if kind == ADDRESS:
            throttles.give_back(kind, who)
        else:
            throttles.clear(kind, who)
    throttles.forget_reservations(request)


def recorded_failures(address: str) -> int:
    """Failed log-ins from ``address`` within the cool-off, as django-axes recorded them."""
    if address == "unknown":
        return 0
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    total = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
        failures=Sum("failures_since_start")
    )["failures"]
    return total or 0


class LoginGateBackend:
    """First in ``AUTHENTICATION_BACKENDS``: refuses (``PermissionDenied``, which stops
    ``authenticate()`` before any later backend hashes) past the log-in limits; otherwise
    lets the next backends decide. Logs nobody in itself (no ``get_user``: sessions and
    ``force_login`` use the backend that did)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        address = throttles.client_address(request)
        refusing = take_password_slots(request, PAIR, (username or "", address))
        if refusing:
            setattr(request, REFUSED_BY, refusing)
            raise PermissionDenied(refusing)
        request.coins_login_gate = True
        return None


@receiver(user_logged_in, dispatch_uid="accounts.lockout.logged_in")
def _password_was_right(sender, request, user, **kwargs):
    if request is not None and getattr(request, "coins_login_gate", False):
        password_right(request)


class AxesHandler(AxesDatabaseHandler):
    """django-axes's database handler, except that a log-in the gate refused is not recorded
    (it was never tried: no hash, no database write); axes just shows the lock-out page."""

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        if request is not None and getattr(request, REFUSED_BY, None):
            request.axes_locked_out = True
            request.axes_credentials = credentials
            return
        if request is not None and getattr(request, "axes_locked_out", False):
            throttles.give_back_all(request)  # axes refused it before any hash
        super().user_login_failed(sender, credentials, request, **kwargs)


def lockout_response(request, *args, **kwargs):
    """``AXES_LOCKOUT_CALLABLE``: the lock-out page (429) with both limits and the pause."""
    limit_name = getattr(request, REFUSED_BY, None) or PAIR
    throttled(limit_name)
    seconds = throttles.cool_off_seconds()
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": address_limit(),
        "minutes": seconds // 60,
        "by_address": limit_name == ADDRESS,
    }
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
