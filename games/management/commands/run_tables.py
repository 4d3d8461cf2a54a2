"""``manage.py run_tables``: a table runner on its own, beside the server processes.

Each Daphne already runs one; add these where bots, clocks and ratings should have more
hands (they share the schedule with the servers' runners: see ``games/runner.py``). Needs a
shared channel layer (``REDIS_URL``) so that the tables it serves hear of their changes.
"""

import asyncio
import logging

from django.conf import settings
from django.core.management.base import BaseCommand

from games.table.runner import lanes, run_tables_forever


class Command(BaseCommand):
    help = "Serve tables' schedules (bots' cards, clocks, absent players, ratings) until stopped."

    def handle(self, *args, **options):
        if "InMemory" in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
            self.stderr.write(
                "Warning: the in-memory channel layer is this process's own; the sockets "
                "of the server will not hear of the moves made here. Set REDIS_URL."
            )
        logging.getLogger("games.table.runner").setLevel(logging.INFO)
        try:
            asyncio.run(_runner_with_lanes())
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")


async def _runner_with_lanes() -> None:
    """The table runner and the lanes that run beside it (the analysis of finished games)."""
    await asyncio.gather(run_tables_forever(), *(lane() for lane in lanes()))
