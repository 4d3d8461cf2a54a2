"""``manage.py run_tables``: a table runner on its own, beside the server processes.

Each Daphne already runs one; add these where bots, clocks and ratings should have more
hands (they share the schedule with the servers' runners: see ``games/runner.py``). Needs a
shared channel layer (``REDIS_URL``) so that the tables it serves hear of their changes.
"""

import asyncio
import logging

from django.conf import settings
from django.core.management.base import BaseCommand

from games.table.runner import run_tables_forever


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
            asyncio.run(run_tables_forever())
        except KeyboardInterrupt:
            self.stdout.write("Stopped.")
