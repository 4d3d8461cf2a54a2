"""Password hashing with a bound on how much of it one server process does at once.

Every password check and every new password costs one PBKDF2 hash (about 0.25 s of a core
here). Under Daphne each request's sync code runs in its own thread and ``hashlib`` releases
the GIL, so 24 parallel wrong passwords once meant 24 hashes competing for two cores and an
unrelated page taking 19 s. Here at most ``COINS_HASHING_SLOTS`` hashes run at once per
process; ``COINS_HASHING_QUEUE`` more may wait, each at most ``COINS_HASHING_WAIT`` seconds
(a waiting request holds a pooled database connection, so the queue stays small), and one
address holds at most ``COINS_HASHING_PER_ADDRESS`` of those places. Anything beyond is
refused at once with ``HashingBusy``, which the site answers with a "busy, try
again in a moment" page (503, ``accounts.middleware.BusyMiddleware``).
"""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.signals import setting_changed
from django.dispatch import receiver

from coins_site.http_slots import slot_set_aside


class Busy(Exception):
    """The server cannot take this work on right now: the person should try again shortly
    (answered with the "busy" page, 503 and ``Retry-After``). ``limit`` names the limit."""

    limit = "busy"


class HashingBusy(Busy):
    """Too many passwords are being hashed in this process right now."""

    limit = "hashing"


# Whose request is hashing: the client's address, set for each request by
# accounts.middleware.BusyMiddleware ("" outside requests: commands, the shell).
hashing_for: ContextVar[str] = ContextVar("hashing_for", default="")


class HashingLimiter:
    """``slots`` hashes at once; ``queue`` more may wait up to ``wait`` seconds for one; and
    one address holds at most ``per_address`` of those places, so a flood from one address
    cannot fill the queue that everyone else's log-ins wait in."""

    def __init__(self, slots: int, queue: int, wait: float, per_address: int = 0):
        places = max(1, slots) + max(0, queue)
        self.slots = threading.BoundedSemaphore(max(1, slots))
        self.admission = threading.BoundedSemaphore(places)
        self.wait = max(0.0, wait)
        self.per_address = per_address if per_address > 0 else places
        self.holders: Counter = Counter()
        self.lock = threading.Lock()

    @contextmanager
    def slot(self, address: str = ""):
        self._admit(address)
        try:
            if not self.slots.acquire(timeout=self.wait):
                raise HashingBusy
            try:
                yield
            finally:
                self.slots.release()
        finally:
            self._leave(address)

    def _admit(self, address: str) -> None:
        with self.lock:
            if address and self.holders[address] >= self.per_address:
                raise HashingBusy
            if not self.admission.acquire(blocking=False):
                raise HashingBusy
            if address:
                self.holders[address] += 1

    def _leave(self, address: str) -> None:
        with self.lock:
            if address:
                self.holders[address] -= 1
                if not self.holders[address]:
                    del self.holders[address]
            self.admission.release()


_limiter: HashingLimiter | None = None
_limiter_lock = threading.Lock()


def limiter() -> HashingLimiter:
    """This process's limiter, made from the settings on first use."""
    global _limiter
    with _limiter_lock:
        if _limiter is None:
            _limiter = HashingLimiter(
                settings.COINS_HASHING_SLOTS,
                settings.COINS_HASHING_QUEUE,
                settings.COINS_HASHING_WAIT,
                settings.COINS_HASHING_PER_ADDRESS,
            )
        return _limiter


@receiver(setting_changed)
def _forget_limiter(setting, **kwargs):
    """Tests that change a COINS_HASHING_* setting get a limiter made from it."""
    global _limiter
    if setting.startswith("COINS_HASHING_"):
        with _limiter_lock:
            _limiter = None


class BoundedPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Django's PBKDF2-SHA256, unchanged (algorithm ``pbkdf2_sha256`` and Django's iteration
    count, so every stored hash still verifies), run inside one of the process's hashing
    slots. ``encode`` is where every hash happens: new passwords, checks (``verify``), the
    dummy hash for unknown users and the extra work of ``harden_runtime``."""

    def encode(self, password, salt, iterations=None):
        # ``hashlib`` hashes without the interpreter lock: the page's slot serves another
        # request meanwhile (coins_site/http_slots.py).
        with slot_set_aside(), limiter().slot(hashing_for.get()):
            return super().encode(password, salt, iterations)
