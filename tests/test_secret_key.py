"""The server refuses to start with DEBUG off on the public development key."""

import os
import subprocess
import sys

from django.conf import settings


def serve_import(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DJANGO_DEBUG")}
    clean["DJANGO_SETTINGS_MODULE"] = "coins_site.settings"
    clean["COINS_TABLE_RUNNER"] = "0"
    return subprocess.run(
        [sys.executable, "-c", "import coins_site.asgi"],
        env={**clean, **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_no_secret_key_and_no_debug_refuses_to_serve():
    refused = serve_import(DJANGO_DEBUG="0")
    assert refused.returncode != 0 and "Refusing to serve" in refused.stderr
    assert serve_import(DJANGO_DEBUG="0", SECRET_KEY="x" * 50).returncode == 0
    assert serve_import(DJANGO_DEBUG="1").returncode == 0
