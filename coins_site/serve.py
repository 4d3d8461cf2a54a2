"""Daphne as production runs it: ``python -m coins_site.serve ...`` takes Daphne's own
arguments, and adds three things.

- An access log that keeps secrets out. An invite link carries its table's token
  (``/games/95/?invite=...``); anyone who can read the access log could otherwise join every
  private table. The token is replaced by ``[...]`` before the line is written (one JSON
  object per line with ``LOG_FORMAT=json``).
- A deadline for request headers (``COINS_HEADER_TIMEOUT``, default 10 s). Twisted's idle
  timeout starts again with every byte, so a client sending one header line every few
  seconds held a connection for as long as it liked. Here a connection whose request
  headers are not complete that long after it became ready for a request (connected, or
  its previous response done: keep-alive requests and WebSocket handshakes included) is
  closed.
- A prompt stop. On SIGTERM the bots', hints' and analysis workers are ended at once;
  Python's own exit waited for the work they had in hand, and a stopping server sat for
  minutes behind an analysis at low priority. What they were doing is taken up again
  elsewhere (``games.table.thinking.stop_workers_now``).
"""

from __future__ import annotations

import re

import daphne.cli
import daphne.server
from daphne.access import AccessLogGenerator
from daphne.http_protocol import HTTPFactory
from twisted.web import http

from coins_site.logs import json_line, utc_time

SECRET_QUERY = re.compile(r"([?&](?:invite|token)=)[^&\s\"]*")


def redact(request_line: str) -> str:
    return SECRET_QUERY.sub(r"\1[...]", request_line)


class RedactingAccessLog(AccessLogGenerator):
    def __init__(self, stream, as_json: bool | None = None):
        super().__init__(stream)
        if as_json is None:
            from django.conf import settings

            as_json = getattr(settings, "LOG_FORMAT", "text") == "json"
        self.as_json = as_json

    def write_entry(self, host, date, request, status=None, length=None, ident=None, user=None):
        request = redact(request)
        if not self.as_json:
            super().write_entry(host, date, request, status, length, ident, user)
            return
        line = f'{host} - - [{date:%d/%b/%Y:%H:%M:%S}] "{request}" {status or "-"} {length or "-"}'
        self.stream.write(
            json_line(
                time=utc_time(date.timestamp()),
                level="INFO",
                logger="access",
                message=line,
                client=host,
                request=request,
                status=status,
                size=length,
            )
            + "\n"
        )


class HeaderDeadlineChannel(http.HTTPChannel):
    """Twisted's HTTP/1.1 channel, closed when a request's headers take longer than
    ``header_timeout`` seconds from the moment the channel waits for them. (HTTP/2 would
    need TLS and Twisted's h2 extra, which Daphne is not run with here.)"""

    header_timeout: float = 10.0
    abortTimeout = 2  # seconds a timed-out connection may take to close before it is cut
    _header_deadline = None

    def connectionMade(self):
        super().connectionMade()
        self._wait_for_headers()

    def allHeadersReceived(self):
        self._stop_waiting()
        super().allHeadersReceived()

    def requestDone(self, request):
        # Before the parent replays pipelined bytes, which may hold the next headers whole.
        if self.persistent:
            self._wait_for_headers()
        super().requestDone(request)

    def connectionLost(self, reason):
        self._stop_waiting()
        super().connectionLost(reason)

    def _wait_for_headers(self):
        self._stop_waiting()
        if self.header_timeout:
            self._header_deadline = self.callLater(self.header_timeout, self._headers_too_slow)

    def _stop_waiting(self):
        if self._header_deadline is not None and self._header_deadline.active():
            self._header_deadline.cancel()
        self._header_deadline = None

    def _headers_too_slow(self):
        self._header_deadline = None
        from coins_site.monitoring import throttled

        throttled("header_timeout")
        self.timeoutConnection()  # Twisted's own close for idle clients, cut if it lingers


class HeaderDeadlineHTTPFactory(HTTPFactory):
    """Daphne's HTTP factory, building ``HeaderDeadlineChannel`` (timeout from the settings,
    which are loaded by the time Daphne builds its factory)."""

    def __init__(self, server):
        super().__init__(server)
        from django.conf import settings

        self.header_timeout = float(getattr(settings, "COINS_HEADER_TIMEOUT", 10.0))

    def protocol(self):
        # What http.HTTPFactory.protocol does, with our channel inside.
        channel = HeaderDeadlineChannel()
        channel.header_timeout = self.header_timeout
        return http._GenericHTTPChannelProtocol(channel)


def main() -> None:
    daphne.cli.AccessLogGenerator = RedactingAccessLog
    daphne.server.HTTPFactory = HeaderDeadlineHTTPFactory  # what Server.run builds
    try:
        daphne.cli.CommandLineInterface.entrypoint()
    finally:
        # Stopped (SIGTERM, SIGINT): end the search and analysis workers now, or Python's
        # exit waits for the work they have in hand (minutes, for an analysis).
        from games.realtime.loop_db import close_loop_connections
        from games.table.thinking import stop_workers_now

        stop_workers_now()
        close_loop_connections()  # PostgreSQL hears them close, rather than lose them


if __name__ == "__main__":
    main()
