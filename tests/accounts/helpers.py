"""Helpers for the accounts' abuse tests: parallel bursts and a hasher that counts."""

from __future__ import annotations

import threading

from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client

from lab.benchmarks.bursts import at_once  # noqa: F401  (the tests' bursts)

COUNTING_HASHER = "tests.accounts.helpers.CountingMD5PasswordHasher"


class CountingMD5PasswordHasher(MD5PasswordHasher):
    """The fast test hasher, counting every hash it makes (checks and new passwords)."""

    lock = threading.Lock()
    hashes = 0

    def encode(self, password, salt):
        with self.lock:
            type(self).hashes += 1
        return super().encode(password, salt)

    @classmethod
    def reset(cls) -> None:
        with cls.lock:
            cls.hashes = 0


def post_from(address: str, path: str, data: dict, client: Client | None = None):
    """POST ``data`` to ``path`` from ``address`` with a client of its own (or ``client``)."""
    return (client or Client()).post(path, data, REMOTE_ADDR=address)


def throttled_count(limit: str) -> float:
    """How many refusals ``coins_site.monitoring`` has counted for ``limit`` so far."""
    from coins_site.monitoring import THROTTLED

    return THROTTLED.labels(limit=limit)._value.get()


FAST_BOUNDED_HASHER = "tests.accounts.helpers.FastBoundedHasher"


def _fast_bounded_hasher():
    from accounts.hashers import BoundedPBKDF2PasswordHasher

    class FastBoundedHasher(BoundedPBKDF2PasswordHasher):
        """The site's bounded hasher with one iteration: the bound without the cost."""

        iterations = 1

    return FastBoundedHasher


FastBoundedHasher = _fast_bounded_hasher()
