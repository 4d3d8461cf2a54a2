"""A Redis server of a test's own, to stop and start again like a real outage."""

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager

import pytest
from channels.layers import channel_layers


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivateRedis:
    """redis-server on a free port; ``kill`` it (SIGKILL: it keeps nothing) and ``start``
    it again on the same port."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self):
        self.process.kill()
        self.process.wait()


@contextmanager
def layers_on_private_redis(settings, layers):
    """A ``PrivateRedis`` started, with ``CHANNEL_LAYERS`` set to ``layers(its url)`` for
    the block (live servers fork with these settings); killed after it. Skips where
    redis-server is not installed (the embedded defaults need none; CI has it)."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    redis = PrivateRedis()
    redis.start()
    settings.CHANNEL_LAYERS = layers(redis.url)
    channel_layers.backends.clear()
    try:
        yield redis
    finally:
        redis.kill()
        channel_layers.backends.clear()


@pytest.fixture
def private_redis(settings):
    """The channel layer on a Redis of the test's own, for the test to kill and restart."""

    def layers(url):
        return {
            "default": {
                "BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [{"address": url, "socket_timeout": None}]},
            }
        }

    with layers_on_private_redis(settings, layers) as redis:
        yield redis
