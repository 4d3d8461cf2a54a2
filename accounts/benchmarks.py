"""Measurements of the accounts' defences against a live server, over real HTTP.

``hashing_flood`` times an unrelated page while many clients at once send requests that each
cost a password hash (wrong current passwords to the password-change form, or log-ins with
unknown names, which Django answers after a dummy hash); ``reset_timing`` times the reset
form for an address with an account and one without. Both return plain dicts of figures
(milliseconds), for ``manage.py bench_hashing`` and ``bench_abuse``.
"""

from __future__ import annotations

import http.cookiejar
import re
import secrets
import statistics
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
TARGETS = ("password-change", "login", "page")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a 302 is the answer being measured


class Visitor:
    """One browser: its own cookies, CSRF tokens filled in like a form would."""

    def __init__(self, base: str, timeout: float = 60.0):
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def get(self, path: str, headers: dict | None = None) -> tuple[int, str]:
        return self._open(urllib.request.Request(self.base + path, headers=headers or {}))

    def sign_in_as(self, session_key: str) -> None:
        """Carry the session cookie ``session_key`` (a session made as the login view would)."""
        host = urllib.parse.urlsplit(self.base).hostname
        self.jar.set_cookie(
            http.cookiejar.Cookie(
                **{"version": 0, "name": "sessionid", "value": session_key, "port": None},
                **{"port_specified": False, "domain": host, "domain_specified": False},
                **{"domain_initial_dot": False, "path": "/", "path_specified": True},
                **{"secure": False, "expires": None, "discard": True, "comment": None},
                **{"comment_url": None, "rest": {}},
            )
        )

    def token(self, form_path: str) -> str:
        match = CSRF_FIELD.search(self.get(form_path)[1])
        return match.group(1) if match else ""

    def post(self, path: str, data: dict, token: str) -> tuple[int, str]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        headers = {"Referer": self.base + path, "Origin": self.base}
        return self._open(urllib.request.Request(self.base + path, data=body, headers=headers))

    def _open(self, request) -> tuple[int, str]:
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return response.status, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")


def _ms(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return round(ordered[index] * 1000, 1)


def _timed(call) -> tuple[float, int]:
    started = time.perf_counter()
    status = call()[0]
    return time.perf_counter() - started, status


def _probe(visitor: Visitor, path: str, until) -> tuple[list[float], Counter]:
    latencies, answers = [], Counter()
    while until():
        seconds, status = _timed(lambda: visitor.get(path))
        latencies.append(seconds)
        answers[status] += 1
    return latencies, answers


def _flooder(base: str, target: str, username: str, password: str, address: str = ""):
    """A function sending one hashing request per call, for one client of the flood
    (``address``: the one it shows a server that trusts the benchmark as its proxy)."""
    visitor = Visitor(base)
    if address:
        visitor.opener.addheaders.append(("X-Forwarded-For", address))
    if target == "password-change":
        token = visitor.token("/accounts/login/")
        status, _page = visitor.post(
            "/accounts/login/", {"username": username, "password": password}, token
        )
        if status != 302:
            raise RuntimeError(
                f"The flood's log-in was answered {status}: a limit still holds from an earlier "
                "run (accounts.benchmarks.forget_failures clears them)."
            )
        token = visitor.token("/accounts/password/change/")
        wrong = "not-" + password
        data = {"old_password": wrong, "new_password1": wrong + "9", "new_password2": wrong + "9"}
        return lambda: visitor.post("/accounts/password/change/", data, token)
    if target == "page":  # the control: a form page that hashes nothing
        return lambda: visitor.get("/accounts/login/")
    token = visitor.token("/accounts/login/")
    return lambda: visitor.post(
        "/accounts/login/", {"username": f"nobody-{secrets.token_hex(4)}", "password": "x"}, token
    )


def hashing_flood(
    base: str,
    username: str,
    password: str,
    *,
    target: str = "password-change",
    parallel: int = 24,
    seconds: float = 10.0,
    probe_path: str = "/games/",
    quiet_probes: int = 30,
    address_of=None,
) -> dict:
    """An unrelated page's latency, quiet and while ``parallel`` clients send hashing requests
    as fast as they can for ``seconds``; what the flood was answered.

    ``target``: ``password-change`` (each client logged in as ``username``, sending a wrong
    current password), ``login`` (unknown names: Django's dummy hash) or ``page`` (the
    control: the same flood of a page that hashes nothing, the log-in form). Returns the probe's
    p50/p95/max (ms) quiet and under the flood, the flood's answers by status (200: the form
    again after a hash, 429: refused by a limit before hashing, 503: "busy", refused by the
    hashing bound) and the flood's own latencies. ``address_of(n)``: the address client ``n``
    shows a server that trusts the benchmark as its proxy (none by default).
    """
    if target not in TARGETS:
        raise ValueError(f"target is one of {TARGETS}")
    prober = Visitor(base)
    prober.get(probe_path)  # warm
    count = iter(range(quiet_probes))
    quiet, _answers = _probe(prober, probe_path, lambda: next(count, None) is not None)
    senders = [
        _flooder(base, target, username, password, address_of(n) if address_of else "")
        for n in range(parallel)
    ]
    start = threading.Barrier(parallel + 1)
    deadline = 0.0
    lock = threading.Lock()
    flood_latencies: list[float] = []
    flood_answers: Counter = Counter()

    def flood(send):
        start.wait()
        while time.perf_counter() < deadline:
            took, status = _timed(send)
            with lock:
                flood_latencies.append(took)
                flood_answers[status] += 1

    threads = [threading.Thread(target=flood, args=(send,), daemon=True) for send in senders]
    for thread in threads:
        thread.start()
    deadline = time.perf_counter() + seconds
    start.wait()
    loaded, probe_answers = _probe(prober, probe_path, lambda: time.perf_counter() < deadline)
    for thread in threads:
        thread.join()
    quiet_p95 = _ms(quiet, 0.95)
    loaded_p95 = _ms(loaded, 0.95)
    return {
        "target": target,
        "parallel": parallel,
        "seconds": seconds,
        "probe_path": probe_path,
        "quiet_ms_p50": _ms(quiet, 0.5),
        "quiet_ms_p95": quiet_p95,
        "loaded_ms_p50": _ms(loaded, 0.5),
        "loaded_ms_p95": loaded_p95,
        "loaded_ms_max": _ms(loaded, 1.0),
        "loaded_probes": len(loaded),
        "probe_errors": sum(n for status, n in probe_answers.items() if status != 200),
        "p95_ratio": round(loaded_p95 / quiet_p95, 2) if quiet_p95 and loaded_p95 else None,
        "flood_requests": sum(flood_answers.values()),
        "flood_answers": {str(status): n for status, n in sorted(flood_answers.items())},
        "flood_ms_p50": _ms(flood_latencies, 0.5),
        "flood_ms_p95": _ms(flood_latencies, 0.95),
    }


def forget_failures(address: str = "127.0.0.1", users=()) -> None:
    """Clear the log-in and password limits of ``address`` and ``users`` (counters in the
    shared cache, django-axes's records), so that one measurement does not start paused by
    the previous one. Runs in-process (it needs the site's settings and database)."""
    from axes.models import AccessAttempt

    from . import lockout, throttles

    throttles.clear(lockout.ADDRESS, address)
    for user in users:
        throttles.clear(lockout.PAIR, (user.get_username(), address))
        throttles.clear("password-change", user.pk)
    AccessAttempt.objects.filter(ip_address=address).delete()


def reset_timing(base: str, known_email: str, unknown_email: str, rounds: int = 10) -> dict:
    """The reset form's answer time for an address with an account and one without,
    alternating (each from a fresh visitor). Mind the budgets: the server should allow
    ``2 * rounds`` requests from this address (``COINS_RESETS_PER_HOUR_FROM_ADDRESS``)."""
    times: dict[str, list[float]] = {"known": [], "unknown": []}
    answers: Counter = Counter()
    for _round in range(rounds):
        for kind, email in (("known", known_email), ("unknown", unknown_email)):
            visitor = Visitor(base)
            token = visitor.token("/accounts/password/reset/")
            took, status = _timed(
                lambda v=visitor, e=email, t=token: v.post(
                    "/accounts/password/reset/", {"email": e}, t
                )
            )
            times[kind].append(took)
            answers[status] += 1
    return {
        "rounds": rounds,
        "known_ms_p50": _ms(times["known"], 0.5),
        "unknown_ms_p50": _ms(times["unknown"], 0.5),
        "known_ms_mean": round(statistics.fmean(times["known"]) * 1000, 1),
        "unknown_ms_mean": round(statistics.fmean(times["unknown"]) * 1000, 1),
        "answers": {str(status): n for status, n in sorted(answers.items())},
    }
