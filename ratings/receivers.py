"""Rate each game once it is over, from the table runner that serves its aftermath.

A game's last card schedules its aftermath (``Game.due_at``) in the same transaction, so a
game ends rated even if the process that played its last card dies right after: whichever
runner is alive picks the aftermath up (``games/runner.py``), off the move's path.
"""

import logging

from django.dispatch import receiver

from games.signals import game_over

from .services import game_rate

log = logging.getLogger(__name__)


@receiver(game_over)
def rate_finished_game(sender, game_id: int, **kwargs) -> None:
    try:
        game_rate(game_id=game_id)
    except Exception:  # a rating failure must never stop the runner; recompute repairs it
        log.exception("Could not rate game %s", game_id)
