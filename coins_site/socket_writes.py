"""Frames written to the socket at once, not at the event loop's next turn.

Twisted buffers every ``transport.write`` and sends it only when the loop next reports the
socket writable: each board waited for the rest of the loop's ready work and a poll, and
cost two more ``epoll_ctl`` calls. asyncio's own transports try the socket first; this
gives Daphne's TCP connections the same: with nothing already waiting in the buffer, the
data goes to ``send`` now, and only what the socket would not take is buffered as before.
"""

from __future__ import annotations

from twisted.internet import abstract, tcp

_buffered_write = abstract.FileDescriptor.write


def write_at_once(self, data: bytes) -> None:
    """Send ``data`` now when nothing is queued before it; buffer what is left."""
    if (
        type(data) is bytes
        and data
        and self.connected
        and not (self.disconnecting or self._writeDisconnecting or self._writeDisconnected)
        and not self._aborting  # dropping what is buffered: nothing more goes out
        and not self._tempDataBuffer
        and self.offset == len(self.dataBuffer)
    ):
        sent = self.writeSomeData(data)
        if type(sent) is int and sent > 0:  # else 0 (would block) or a lost connection
            if sent == len(data):
                return
            data = data[sent:]
    _buffered_write(self, data)


def install() -> None:
    """Give every TCP connection of this process (Daphne's) the writes at once."""
    tcp.Connection.write = write_at_once
