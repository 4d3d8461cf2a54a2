"""What ``/healthz`` checks: the database, the channel layer, and that some table runner is
alive. Each check is timed; a failure is named by its kind, never by its message (which may
carry host names or credentials)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connection

from .heartbeat import youngest_age

LAYER_TIMEOUT = 2.0  # seconds a channel layer round trip may take


class Unhealthy(Exception):
    """A check found something wrong; its message says what (no secrets)."""


def database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {}


def channel_layer() -> dict:
    """A message sent to a fresh channel and received back (Redis both ways); the in-memory
    layer is this process's own and always answers."""
    layer = get_channel_layer()
    if layer is None:
        raise Unhealthy("no channel layer configured")
    if isinstance(layer, InMemoryChannelLayer):
        return {"backend": "memory"}
    async_to_sync(_round_trip)(layer)
    return {}


async def _round_trip(layer) -> None:
    async with asyncio.timeout(LAYER_TIMEOUT):
        channel = await layer.new_channel()
        await layer.send(channel, {"type": "health.ping"})
        if (await layer.receive(channel)).get("type") != "health.ping":
            raise Unhealthy("the channel layer answered with another message")


def runner() -> dict:
    """The youngest heartbeat of any table runner (``COINS_HEALTH_RUNNER_AGE``)."""
    limit = settings.COINS_HEALTH_RUNNER_AGE
    age = youngest_age()
    if age is None:
        raise Unhealthy("no table runner has ever beaten")
    seconds = round(age.total_seconds(), 1)
    if seconds > limit:
        raise Unhealthy(f"the youngest runner heartbeat is {seconds} s old (limit {limit:g} s)")
    return {"age_s": seconds}


def timed(check: Callable[[], dict]) -> dict:
    """Run ``check``: its state (``ok``), its time (``ms``), what it found or what failed."""
    started = time.perf_counter()
    try:
        result = {"ok": True, **check()}
    except Unhealthy as problem:
        result = {"ok": False, "error": str(problem)}
    except Exception as error:  # the check's whole point: any failure is a finding
        result = {"ok": False, "error": type(error).__name__}
    result["ms"] = round((time.perf_counter() - started) * 1000, 2)
    return result


def run_checks() -> dict[str, dict]:
    checks = {"database": database, "channel_layer": channel_layer}
    if settings.COINS_HEALTH_RUNNER_AGE:
        checks["runner"] = runner
    return {name: timed(check) for name, check in checks.items()}
