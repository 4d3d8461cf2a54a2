"""How the games app keeps a duplicate game (private to its player until its day closes), and
the runners' spare time rating the closed days (``duplicate.rating``)."""

import logging

from django.dispatch import receiver

from games.signals import runner_idle, table_policy

from .rating import rating_catch_up
from .selectors import policy_of_game

log = logging.getLogger(__name__)


@receiver(table_policy, dispatch_uid="duplicate.table_policy")
def duplicate_table_policy(sender, game, **kwargs):
    return policy_of_game(game)


@receiver(runner_idle, dispatch_uid="duplicate.rate_closed_days")
def closed_days_rated(sender, **kwargs) -> None:
    """Rate any closed day not rated yet. An error is logged and tried again next time,
    without keeping the other apps' background work (later receivers) from running."""
    try:
        rating_catch_up()
    except Exception:
        log.exception("Rating the closed duplicate days failed; trying again later")
