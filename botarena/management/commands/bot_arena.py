"""Run the bot arena's scheduler for a given time: seat games among the bots in the arena
every ``COINS_BOT_ARENA_POLL`` seconds (the tables themselves are played by the site's
table runners, or ``manage.py run_tables``)."""

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from botarena.pairing import arena_tick


class Command(BaseCommand):
    help = "Run the bot arena's scheduler for --minutes (0: one look), then stop."

    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def add_arguments(self, parser):
        parser.add_argument("--minutes", type=float, required=True)
        parser.add_argument(
            "--games-at-once",
            type=int,
            default=None,
            help="arena games kept going at once (default COINS_BOT_ARENA_GAMES)",
        )

    def handle(self, *args, minutes: float, games_at_once: int | None, **options):
        if minutes < 0 or (games_at_once is not None and games_at_once < 1):
            raise CommandError("--minutes is 0 or more, --games-at-once 1 or more.")
        ends = self.clock() + minutes * 60
        seated = 0
        while True:
            seated += arena_tick(games_at_once=games_at_once)
            if self.clock() >= ends:
                break
            self.sleep(settings.COINS_BOT_ARENA_POLL)
        self.stdout.write(f"Bot arena: {seated} games seated.")
