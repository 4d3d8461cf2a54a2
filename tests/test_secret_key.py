"""The server refuses to start with DEBUG off on the public development key."""

import os
import subprocess
import sys

from django.conf import settings


def serve_import(**env) -> subprocess.Popen:
    """Import the ASGI application in a fresh process with ``env`` (started, not awaited:
    the checks run side by side)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_DEBUG")}
    clean["DJANGO_SETTINGS_MODULE"] = "coins_site.settings"
    clean["COINS_TABLE_RUNNER"] = "0"
    return subprocess.Popen(
        [sys.executable, "-c", "import coins_site.asgi"],
        env={**clean, **env},
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def outcome(process: subprocess.Popen) -> tuple[int, str]:
    _out, err = process.communicate(timeout=60)
    return process.returncode, err


def test_no_secret_key_and_no_debug_refuses_to_serve():
    refused, keyed, debug = (
        serve_import(DJANGO_DEBUG="0"),
        serve_import(DJANGO_DEBUG="0", SECRET_KEY="x" * 50),
        serve_import(DJANGO_DEBUG="1"),
    )
    code, err = outcome(refused)
    assert code != 0 and "Refusing to serve" in err
    assert outcome(keyed)[0] == 0
    assert outcome(debug)[0] == 0
