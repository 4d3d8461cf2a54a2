"""The benchmarks' servers and people: a Daphne of the site's own (``coins_site.serve``) on a
free port, in the settings the environment gives it, and sessions logged in as the people the
benchmarks play as."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore

from accounts.backends import PERSON_BACKEND

START_SECONDS = 90  # a starved machine (load 15 on 2 cores) took over 30 s


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def use_a_key_of_our_own() -> None:
    """The server refuses the public development key with debug off: a benchmark run (the
    sessions it makes here and the servers it starts) shares a key of its own. Call before
    making sessions."""
    if settings.SECRET_KEY == settings.DEVELOPMENT_SECRET_KEY:
        settings.SECRET_KEY = secrets.token_urlsafe(50)


def logged_in_session(user) -> str:
    """Return a session key logged in as ``user``, as the login view would make."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = PERSON_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def new_player(run: str, number: int) -> tuple[object, str]:
    user = get_user_model().objects.create_user(
        f"bench-{run}-{number}"  # no password: nobody logs in as a benchmark player
    )
    return user, logged_in_session(user)


class DaphneServer:
    """A Daphne process serving this project on a free port, with its table runner; bots
    pause ``bot_pause`` seconds (0: they answer in the person's own move)."""

    def __init__(self, query_log: Path, bot_pause: float = 0.0, number: int = 0, extra_env=None):
        self.port = free_port()
        use_a_key_of_our_own()
        self.log_path = query_log.with_name(f"daphne-{number}.log")
        log = self.log_path.open("wb")
        env = {
            **os.environ,
            "COINS_BOT_PAUSE": str(bot_pause),
            "COINS_QUERY_LOG": str(query_log),
            "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are signed with it
            "COINS_THINK_LOG": str(query_log.with_name("thinking.log")),
            **(extra_env or {}),
        }
        env.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
        env.setdefault("COINS_TRUSTED_PROXIES", "127.0.0.1")  # the benchmark stands for the proxy
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "coins_site.serve",  # the site's own server: Daphne with its access log and limits
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "coins_site.asgi:application",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=settings.BASE_DIR,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            if self.process.poll() is not None:
                raise RuntimeError(self.log_path.read_text()[-2000:])
            time.sleep(0.1)
        self.stop()  # never left running (and holding the database) behind an error
        raise RuntimeError(f"Daphne did not start within {START_SECONDS} s.")

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system) the server has used so far; None off Linux."""
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
