"""The table runners' heartbeats: one row per runner (host and process), so any process, even
one without a runner, can tell a load balancer whether tables are being served."""

from django.db import models


class RunnerHeartbeat(models.Model):
    host = models.CharField(max_length=255)
    pid = models.PositiveIntegerField()
    beat_at = models.DateTimeField(help_text="the database's clock, so hosts' clocks never matter")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["host", "pid"], name="runner_heartbeat_host_pid")
        ]

    def __str__(self) -> str:
        return f"runner {self.host}:{self.pid} at {self.beat_at:%Y-%m-%d %H:%M:%S}"
