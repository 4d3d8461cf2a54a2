"""Table runners' heartbeats: each runner notes it is alive, at most every ``EVERY`` seconds.

One row per runner (host and process id), upserted with the database's clock; rows of
runners gone for ``FORGET_AFTER`` are pruned now and then. ``/healthz`` reads the youngest.
"""

from __future__ import annotations

import os
import socket
import time
from datetime import timedelta

from django.db.models import DurationField, ExpressionWrapper, Max
from django.db.models.functions import Now

from .models import RunnerHeartbeat

EVERY = 2.0  # seconds between two beats of one runner
PRUNE_EVERY = 60.0  # seconds between two prunes by one runner
FORGET_AFTER = timedelta(minutes=10)  # a runner silent this long is forgotten

HOST = socket.gethostname()[:255]


def beat(prune: bool = False) -> None:
    """This process's runner is alive now (one upsert); with ``prune``, forget runners
    silent for ``FORGET_AFTER`` (one delete)."""
    RunnerHeartbeat.objects.bulk_create(
        [RunnerHeartbeat(host=HOST, pid=os.getpid(), beat_at=Now())],
        update_conflicts=True,
        unique_fields=["host", "pid"],
        update_fields=["beat_at"],
    )
    if prune:
        RunnerHeartbeat.objects.filter(beat_at__lt=Now() - FORGET_AFTER).delete()


def youngest_age() -> timedelta | None:
    """How long ago the most recent heartbeat of any runner was (the database's clock both
    ways), or None when no runner ever beat; one query."""
    return RunnerHeartbeat.objects.aggregate(
        age=ExpressionWrapper(Now() - Max("beat_at"), output_field=DurationField())
    )["age"]


class Pacemaker:
    """One runner's rhythm: a beat every ``EVERY`` seconds, a prune every ``PRUNE_EVERY``
    (``time.monotonic`` by default). A beat that failed is due again at once."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.beaten_at: float | None = None
        self.pruned_at: float | None = None

    def due(self) -> bool:
        return self.beaten_at is None or self.clock() - self.beaten_at >= EVERY

    def beat(self) -> None:
        now = self.clock()
        prune = self.pruned_at is None or now - self.pruned_at >= PRUNE_EVERY
        beat(prune=prune)
        self.beaten_at = now
        if prune:
            self.pruned_at = now
