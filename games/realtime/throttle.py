"""Message rate limits for sockets: a token bucket per socket.

A person plays a card a second at most; pages send a sync every 8 s. A burst allows quick
clicks and chat, then messages are refused politely (only the first few refusals are
answered, so a flood cannot make the server write as fast as it is written to), and a
socket that keeps flooding is closed with ``CLOSE_FLOODING``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

BURST = 20  # messages a socket may send at once (settings.COINS_SOCKET_BURST)
PER_SECOND = 4.0  # then this many a second, on average (settings.COINS_SOCKET_RATE)
ANSWERED_REFUSALS = 3  # refusals answered in a row before the socket goes quiet
CLOSE_AFTER_REFUSALS = 50  # refusals in a row before the socket is closed
CLOSE_FLOODING = 4429


@dataclass
class MessageBucket:
    burst: int = BURST
    per_second: float = PER_SECOND
    tokens: float = BURST
    refused_in_row: int = 0
    clock: object = field(default=time.monotonic, repr=False)
    last: float = field(default=-1.0)

    def take(self) -> bool:
        """Spend one message; False if the socket is over its rate."""
        now = self.clock()
        if self.last >= 0:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_row = 0
            return True
        self.refused_in_row += 1
        return False

    @property
    def should_answer(self) -> bool:
        return self.refused_in_row <= ANSWERED_REFUSALS

    @property
    def should_close(self) -> bool:
        return self.refused_in_row >= CLOSE_AFTER_REFUSALS
