"""Test processes running side by side share one Redis: each must keep to its own names."""

import json
import os
import subprocess
import sys

from django.conf import settings

LAYER_PREFIXES = (
    "import json; from django.conf import settings; "
    "print(json.dumps({a: l['CONFIG'].get('prefix') for a, l in settings.CHANNEL_LAYERS.items()}))"
)


def layer_prefixes(worker: str) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "coins_site.settings_test"}
    env.update(REDIS_URL="redis://127.0.0.1:6379/0", PYTEST_XDIST_WORKER=worker)
    done = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {LAYER_PREFIXES}"],
        env=env,
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_redis_layer_of_each_worker_has_names_of_its_own():
    """Both workers number their games from 1: the sockets' groups and the Bot API's game
    streams (a layer of their own) must not meet in Redis."""
    first, second = layer_prefixes("gw0"), layer_prefixes("gw1")
    assert set(first) == {"default", "streams"}
    for alias in first:
        assert first[alias] and second[alias] and first[alias] != second[alias]
    assert len(set(first.values())) == 2  # nor do a worker's two layers share names
