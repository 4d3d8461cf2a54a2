"""How the games app keeps a duplicate game (private to its player until its day closes) and
a duplicate event's table (sealed), and the runners' spare time: rating the closed days
(``duplicate.rating``) and moving the events on to their next deal."""

import logging

from django.dispatch import receiver

from games.signals import runner_idle, table_policy

from .event_selectors import event_policy_of_game
from .event_services import events_advance
from .rating import rating_catch_up
from .selectors import policy_of_game

log = logging.getLogger(__name__)


@receiver(table_policy, dispatch_uid="duplicate.table_policy")
def duplicate_table_policy(sender, game, **kwargs):
    return policy_of_game(game) or event_policy_of_game(game)


@receiver(runner_idle, dispatch_uid="duplicate.rate_closed_days")
def closed_days_rated(sender, **kwargs) -> None:
    """Rate any closed day not rated yet. An error is logged and tried again next time,
    without keeping the other apps' background work (later receivers) from running."""
    try:
        rating_catch_up()
    except Exception:
        log.exception("Rating the closed duplicate days failed; trying again later")


@receiver(runner_idle, dispatch_uid="duplicate.advance_events")
def events_moved_on(sender, **kwargs) -> None:
    """Start the next deal of every event whose tables have all ended. An error is logged
    and tried again next time."""
    try:
        events_advance()
    except Exception:
        log.exception("Moving the duplicate events on failed; trying again later")
