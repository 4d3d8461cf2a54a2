"""Time an unrelated page while clients flood the password-hashing endpoints of a fresh
production-configured server (debug off, the real PBKDF2 hasher, PostgreSQL), once per
setting of the limits; and the reset form's time for known and unknown addresses. Prints
each scenario; the last line is JSON."""

import json
import secrets
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from accounts.benchmarks import forget_failures, hashing_flood, reset_timing
from lab.benchmarks.servers import DaphneServer

PASSWORD = "bench-Hashing-pass-42"
NO_LIMITS = {  # every request reaches the hasher: only the hashing bound is left
    "AXES_FAILURE_LIMIT": "1000000",
    "COINS_LOGIN_FAILURES_PER_ADDRESS": "1000000",
}
NO_BOUND = {  # as before the bound
    "COINS_HASHING_SLOTS": "1000",
    "COINS_HASHING_QUEUE": "1000",
    "COINS_HASHING_PER_ADDRESS": "1000",
}


class Command(BaseCommand):
    help = "Hashing floods against a fresh server: an unrelated page's latency meanwhile."

    def add_arguments(self, parser):
        parser.add_argument("--seconds", type=float, default=10.0)
        parser.add_argument("--parallel", type=int, nargs="+", default=[24, 50])
        parser.add_argument(
            "--only", nargs="+", default=[], help="scenarios: control limits bound_only unbounded"
        )

    def handle(self, *args, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Set DATABASE_URL to a PostgreSQL database: the server shares it.")
        if settings.DEBUG:
            raise CommandError("Unset DJANGO_DEBUG: the figures are for production settings.")
        run = secrets.token_hex(3)
        user = get_user_model().objects.create_user(
            f"bench-hash-{run}", f"bench-{run}@example.com", PASSWORD
        )
        scenarios = [
            ("control", {}, "page"),
            ("limits", {}, "password-change"),
            ("limits", {}, "login"),
            ("bound_only", NO_LIMITS, "password-change"),
            ("bound_only", NO_LIMITS, "login"),
            ("unbounded", {**NO_LIMITS, **NO_BOUND}, "password-change"),
        ]
        figures = {}
        for name, env, target in scenarios:
            if options["only"] and name not in options["only"]:
                continue
            for parallel in options["parallel"]:
                figures[f"{name}_{target}_{parallel}"] = self.flood(
                    user, env, target, parallel, options["seconds"]
                )
        figures["reset_timing"] = self.reset(user)
        for step, numbers in figures.items():
            shown = ", ".join(f"{key} {value}" for key, value in numbers.items())
            self.stdout.write(f"{step}: {shown}")
        self.stdout.write(json.dumps(figures))

    def flood(self, user, env, target, parallel, seconds) -> dict:
        forget_failures(users=[user])  # each scenario starts with no limit reached
        log = Path(tempfile.mkdtemp()) / "queries.log"
        server = DaphneServer(log, extra_env={"COINS_TABLE_RUNNER": "0", **env})
        try:
            return hashing_flood(
                f"http://127.0.0.1:{server.port}",
                user.username,
                PASSWORD,
                target=target,
                parallel=parallel,
                seconds=seconds,
            )
        finally:
            server.stop()

    def reset(self, user) -> dict:
        log = Path(tempfile.mkdtemp()) / "queries.log"
        mail = log.parent / "mail"
        mail.mkdir()
        env = {"EMAIL_FILE_PATH": str(mail)} | {  # every request of a known address mails
            name: "1000"
            for name in (
                "COINS_RESETS_PER_HOUR_FROM_ADDRESS",
                "COINS_RESETS_PER_HOUR_TO_EMAIL",
                "COINS_RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS",
            )
        }
        server = DaphneServer(log, extra_env={"COINS_TABLE_RUNNER": "0", **env})
        try:
            return reset_timing(
                f"http://127.0.0.1:{server.port}", user.email, f"nobody-{user.username}@example.com"
            )
        finally:
            server.stop()
