"""HeaderDeadlineChannel on Twisted's fake clock: when the header deadline is armed and
when it is cancelled, with no wall clock involved (the real-Daphne checks are in
test_slow_clients.py)."""

import pytest
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.web import http

from coins_site.serve import HeaderDeadlineChannel

DEADLINE = 2.0


class HeldRequest(http.Request):
    """A request the test finishes by hand, as Daphne would once the application answers."""

    def process(self):
        self.channel.held.append(self)


def answer(request: HeldRequest) -> None:
    request.setHeader(b"content-length", b"2")
    request.write(b"ok")
    request.finish()


def get(path: bytes = b"/") -> bytes:
    return b"GET " + path + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def channel(clock):
    channel = HeaderDeadlineChannel()
    channel.header_timeout = DEADLINE
    channel.callLater = clock.callLater
    channel.requestFactory = HeldRequest
    channel.held = []
    channel.makeConnection(StringTransport())
    return channel


def closed(channel) -> bool:
    return channel.transport.disconnecting


def test_a_connection_that_sends_nothing_is_closed_at_the_deadline(channel, clock):
    clock.advance(DEADLINE - 0.01)
    assert not closed(channel)
    clock.advance(0.02)
    assert closed(channel)


def test_headers_dribbled_a_line_at_a_time_are_cut_at_the_deadline(channel, clock):
    channel.dataReceived(b"GET / HTTP/1.1\r\n")
    for _ in range(3):  # each line restarts Twisted's idle timeout, not this deadline
        clock.advance(0.6)
        channel.dataReceived(b"X-Slow: aaaaaaaa\r\n")
    assert not closed(channel)
    clock.advance(DEADLINE - 1.8 + 0.01)
    assert closed(channel) and not channel.held


def test_a_request_being_answered_is_never_cut_by_the_deadline(channel, clock):
    channel.dataReceived(get())
    clock.advance(DEADLINE * 10)  # the application takes its time
    assert not closed(channel)
    answer(channel.held[0])
    assert channel.transport.value().startswith(b"HTTP/1.1 200")


def test_pipelined_requests_replayed_after_an_answer_cancel_the_deadline(channel, clock):
    channel.dataReceived(get(b"/one") + get(b"/two"))  # both at once, as a pipelining client
    assert [r.uri for r in channel.held] == [b"/one"]
    clock.advance(DEADLINE - 0.5)
    answer(channel.held[0])  # the second request's headers come out of Twisted's buffer
    assert [r.uri for r in channel.held] == [b"/one", b"/two"]
    clock.advance(DEADLINE * 10)
    assert not closed(channel)
    answer(channel.held[1])
    assert channel.transport.value().count(b"HTTP/1.1 200") == 2


def test_a_keep_alive_connection_gets_a_fresh_deadline_after_each_answer(channel, clock):
    for n in range(3):
        clock.advance(DEADLINE - 0.1)  # a pause just under the deadline
        channel.dataReceived(get())
        answer(channel.held[n])
    assert not closed(channel)
    clock.advance(DEADLINE - 0.01)
    assert not closed(channel)
    clock.advance(0.02)  # idle past the deadline after the last answer
    assert closed(channel)


def test_the_deadline_can_be_switched_off(clock):
    channel = HeaderDeadlineChannel()
    channel.header_timeout = 0
    channel.callLater = clock.callLater
    channel.makeConnection(StringTransport())
    clock.advance(3600)
    assert not closed(channel)
