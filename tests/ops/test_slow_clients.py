"""coins_site.serve cuts connections whose request headers are too slow, against a real
Daphne: a client sending one header line a second is closed within the bound, keep-alive
requests and WebSocket handshakes included, while normal requests go on working."""

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HEADER_TIMEOUT = 2  # seconds, for the server under test (the default is 10)
BOUND = HEADER_TIMEOUT + 6  # closed by then, however busy the machine; never without the deadline
DRIBBLE_FOR = 20  # seconds a slow client would go on (Twisted's idle timeout alone: for ever)
STATIC = b"/static/css/site.css"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server whose header deadline is short enough to watch it cut slow clients."""
    yield from serve(tmp_path_factory, HEADER_TIMEOUT)


@pytest.fixture(scope="module")
def patient_server(tmp_path_factory):
    """A server whose deadline no pause of a busy test machine reaches: a client's own
    pause between two requests is not under test, only that the channel serves them."""
    yield from serve(tmp_path_factory, 600)


def serve(tmp_path_factory, header_timeout: float):
    """``python -m coins_site.serve`` on a free port (SQLite, in-memory layer, no runner:
    only the HTTP edge is under test)."""
    folder = tmp_path_factory.mktemp("serve")
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "LOG_FORMAT")}
    env.update(
        SECRET_KEY="coins-tests-only-" + "x" * 40,
        DJANGO_SETTINGS_MODULE="coins_site.settings",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        COINS_TABLE_RUNNER="0",
        COINS_HEADER_TIMEOUT=str(header_timeout),
    )
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "coins_site.serve",
            "-b",
            "127.0.0.1",
            "-p",
            "0",
            "coins_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"Listening on TCP address [\d.]+:(\d+)", read(log))):
            assert process.poll() is None and time.monotonic() < deadline, read(log)
            time.sleep(0.05)
        yield int(found.group(1))
    finally:
        process.terminate()
        process.wait(30)
        log.close()


def read(log) -> str:
    return Path(log.name).read_text()


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def response(sock: socket.socket) -> tuple[bytes, bytes]:
    """One whole response (head, body) read from ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"closed before the response: {data!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
    while len(body) < length:
        body += sock.recv(65536)
    return head, body


def get(path: bytes) -> bytes:
    return b"GET " + path + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"


def seconds_until_closed(sock: socket.socket, first_line: bytes) -> float | None:
    """Send ``first_line``, then one header line a second; how long until the server
    closed the connection (None: still open after ``DRIBBLE_FOR`` seconds)."""
    started = time.monotonic()
    sock.sendall(first_line)
    sock.settimeout(1.0)
    while time.monotonic() - started < DRIBBLE_FOR:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass
        except ConnectionError:
            return time.monotonic() - started
        try:
            sock.sendall(b"X-Slow: " + b"a" * 8 + b"\r\n")
        except ConnectionError:
            return time.monotonic() - started
    return None


def test_a_client_dribbling_headers_is_cut_within_the_bound(server):
    with connect(server) as sock:
        closed_after = seconds_until_closed(sock, b"GET / HTTP/1.1\r\nHost: localhost\r\n")
    assert closed_after is not None and closed_after < BOUND


def test_a_keep_alive_request_gets_its_own_deadline(server):
    with connect(server) as sock:
        sock.sendall(get(STATIC))
        head, body = response(sock)
        assert head.startswith(b"HTTP/1.1 200") and body
        closed_after = seconds_until_closed(sock, b"GET / HTTP/1.1\r\n")
    assert closed_after is not None and closed_after < BOUND


def test_a_websocket_handshake_dribbling_its_headers_is_cut(server):
    with connect(server) as sock:
        first = b"GET /ws/games/1/ HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        closed_after = seconds_until_closed(sock, first)
    assert closed_after is not None and closed_after < BOUND


def test_a_connection_that_sends_nothing_is_closed(server):
    with connect(server) as sock:
        closed_after = seconds_until_closed(sock, b"")
    assert closed_after is not None and closed_after < BOUND


def test_normal_requests_still_work_one_after_the_other(patient_server):
    with connect(patient_server) as sock:
        for _ in range(3):
            sock.sendall(get(STATIC))
            head, body = response(sock)
            assert head.startswith(b"HTTP/1.1 200") and b"--felt" in body
        sock.sendall(get(STATIC) + get(STATIC))  # pipelined: both answered
        assert response(sock)[0].startswith(b"HTTP/1.1 200")
        assert response(sock)[0].startswith(b"HTTP/1.1 200")
