"""A Redis server of a test's own, to stop and start again like a real outage."""

import shutil
import socket
import subprocess
import time

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


@pytest.fixture
def private_redis(settings):
    """The channel layer on a Redis of the test's own, for the test to kill and restart
    (live servers fork with these settings)."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    redis = PrivateRedis()
    redis.start()
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": redis.url, "socket_timeout": None}]},
        }
    }
    channel_layers.backends.clear()
    yield redis
    redis.kill()
    channel_layers.backends.clear()
