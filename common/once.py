"""Rendered once per key in this process, however many threads ask at the same moment.

A change told to many sockets of one process makes each of them ask for the same HTML in
its own database thread. The first renders it; the others wait on the key's lock and take
the result. The newest ``limit`` results (and their locks) are kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable


class RenderedOnce:
    def __init__(self, limit: int):
        self.limit = limit
        self._kept: dict[Hashable, object] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    def get(self, key: Hashable, render: Callable[[], object]):
        """The result for ``key``: ``render()``'s, called by the first thread to ask."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        with self._lock_of(key):
            kept = self._kept.get(key)
            if kept is None:
                kept = self._kept[key] = render()
                while len(self._kept) > self.limit:
                    self._kept.pop(next(iter(self._kept)), None)  # the oldest first
            return kept

    def _lock_of(self, key: Hashable) -> threading.Lock:
        with self._locks_lock:
            lock = self._locks.setdefault(key, threading.Lock())
            while len(self._locks) > self.limit:
                self._locks.pop(next(iter(self._locks)))
            return lock
