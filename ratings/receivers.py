"""Rate each game once it is over."""

import logging

from django.dispatch import receiver

from games.signals import game_over

from .services import game_rate

log = logging.getLogger(__name__)


@receiver(game_over)
def rate_finished_game(sender, game_id: int, **kwargs) -> None:
    try:
        game_rate(game_id=game_id)
    except Exception:  # a rating failure must never break play; recompute repairs it
        log.exception("Could not rate game %s", game_id)
