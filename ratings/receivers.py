"""What ratings does for games: queue each game once it is over, from the table runner that
serves its aftermath (a ratings lane rates it: ``ratings.queue``); serve recompute requests;
answer the pages' questions (a player's rating, a finished game's rating changes).

A game's last card schedules its aftermath (``Game.due_at``) in the same transaction, so a
game ends queued even if the process that played its last card dies right after: whichever
runner is alive picks the aftermath up (``games/runner.py``), off the move's path, and
whichever ratings lane is alive rates it.

A leaderboard's standings are rebuilt from the rating events when the board is created or its
games change (window, target, opponents); minimum games, exclusions and bots listed are
applied when a page is read.
"""

import logging

from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.utils import timezone

from common.kept_rows import row_exists
from games.signals import game_over, leaving_cost_of, player_page, rating_changes_of, runner_idle

from .models import Leaderboard, PlayerRating, RatingsRecompute
from .queue import game_queue
from .recompute import ratings_recompute, recompute_slot
from .selectors import leaving_cost, rating_changes, rating_history
from .standings import standings_rebuild

log = logging.getLogger(__name__)


@receiver(game_over)
def queue_finished_game(sender, game_id: int, game=None, **kwargs) -> None:
    """Queue the game for a ratings lane inside its aftermath's transaction (idempotent):
    the runner never waits for the rating lock. A failure leaves the aftermath due, and the
    runner tries again a little later."""
    game_queue(game_id=game_id, game=game)


@receiver(player_page)
def rating_on_player_page(sender, player, viewer, **kwargs) -> dict:
    """A player's rating and their last 20 rated games, as ``viewer`` may see them."""
    return {
        "rating": PlayerRating.objects.filter(user=player).first(),
        "rating_history": rating_history(player, viewer)[:20],
    }


@receiver(rating_changes_of)
def ratings_after_game(sender, game_id: int, **kwargs) -> dict:
    return rating_changes(game_id)


@receiver(leaving_cost_of)
def rating_lost_by_leaving(
    sender, game_id: int, seat: int, game=None, seats=None, **kwargs
) -> dict:
    return leaving_cost(game_id, seat, game=game, seats=seats)


@receiver(runner_idle)
def recompute_when_asked(sender, **kwargs) -> None:
    """Serve the oldest pending recompute request, one runner at a time (the others pass).
    A runner killed mid-way leaves it pending: another one resumes it after its last chunk."""
    if not row_exists(RatingsRecompute, finished_at=None):  # nearly always: a plain look
        return
    request = RatingsRecompute.objects.filter(finished_at=None).order_by("requested_at").first()
    if request is None:
        return
    with recompute_slot() as ours:
        if not ours:
            return
        request.refresh_from_db()
        if request.finished_at is not None:
            return
        games = ratings_recompute(request=request)
        RatingsRecompute.objects.filter(
            finished_at=None, requested_at__lte=request.requested_at
        ).update(finished_at=timezone.now(), games=games)


DEFINITION = ("season_start", "season_end", "target", "opponents")


@receiver(pre_save, sender=Leaderboard)
def note_new_definition(sender, instance: Leaderboard, raw=False, **kwargs) -> None:
    """A board whose games change (new, or a new window, target or opponents) is rebuilt
    once saved; a closed season keeps its frozen rows."""
    if raw or instance.closed_at is not None:
        instance._rebuild_standings = False
        return
    before = Leaderboard.objects.filter(pk=instance.pk).values(*DEFINITION).first()
    now = {field: getattr(instance, field) for field in DEFINITION}
    instance._rebuild_standings = before != now


@receiver(post_save, sender=Leaderboard)
def rebuild_when_redefined(sender, instance: Leaderboard, raw=False, **kwargs) -> None:
    if not raw and getattr(instance, "_rebuild_standings", False):
        standings_rebuild(board=instance)
