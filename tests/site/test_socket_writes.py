"""Daphne's TCP writes go to the socket at once (``coins_site/socket_writes.py``): a frame
is not held for the event loop's next turn, and nothing is ever sent out of order."""

from __future__ import annotations

import socket

import pytest
from twisted.internet import tcp

from coins_site.socket_writes import write_at_once


class Reactor:
    """What a connection asks of its reactor here: to be told when it may write."""

    def __init__(self):
        self.writers = set()

    def addWriter(self, writer):  # Twisted's name
        self.writers.add(writer)

    def removeWriter(self, writer):
        self.writers.discard(writer)

    def removeReader(self, reader):
        pass

    def callLater(self, delay, call, *args):
        pass  # a connection's loss is reported on a later turn: not in these tests


@pytest.fixture
def pair(monkeypatch):
    """A connection whose writes go at once, over one end of a socket pair, and the other
    end; both closed afterwards."""
    monkeypatch.setattr(tcp.Connection, "write", write_at_once)
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    reactor = Reactor()
    conn = tcp.Connection(ours, protocol=None, reactor=reactor)
    conn.connected = True
    yield conn, theirs, reactor
    ours.close()
    theirs.close()


def received(peer: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_frame_is_on_the_socket_before_write_returns(pair):
    conn, peer, reactor = pair
    conn.write(b"board after the card")
    assert received(peer) == b"board after the card"
    assert not reactor.writers  # no wait for the loop to report the socket writable
    assert conn._tempDataLen == 0


def test_what_the_socket_does_not_take_is_buffered_and_later_writes_queue_behind_it(pair):
    conn, peer, reactor = pair
    big = bytes(range(256)) * 40_000  # far more than a socket buffer holds
    conn.write(big)
    assert conn in reactor.writers  # the rest waits for the loop, as Twisted always did
    conn.write(b"the next frame")  # must not overtake the rest of the first
    got = bytearray()
    while reactor.writers:
        got += received(peer)
        conn.doWrite()
    got += received(peer)
    assert bytes(got) == big + b"the next frame"


def test_a_connection_closing_keeps_twisted_s_own_path(pair):
    conn, peer, _reactor = pair
    conn.disconnecting = True
    conn.write(b"late")
    assert received(peer) == b""
    assert conn._tempDataLen == len(b"late")


def test_an_aborted_connection_sends_nothing_more(pair):
    conn, peer, _reactor = pair
    conn.abortConnection()
    conn.write(b"after the abort")
    assert received(peer) == b""


def test_a_lost_peer_is_left_for_twisted_to_find(pair):
    conn, peer, reactor = pair
    peer.close()
    conn.write(b"to nobody")  # send fails (EPIPE): buffered, the loop's write reports it
    assert conn in reactor.writers
    assert conn.doWrite() is not None  # Twisted's own path reports the lost connection
