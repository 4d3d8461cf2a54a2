"""How tournaments hear of the games app: a tournament game's end scores its people; the
runners' spare time sends "your table is ready" notices."""

from django.dispatch import receiver

from games.signals import game_over, runner_idle

from .notices import send_table_notices
from .services import game_score


@receiver(game_over, dispatch_uid="tournaments.score_game")
def score_tournament_game(sender, game_id: int, **kwargs) -> None:
    """Inside the game's aftermath (idempotent): a failure leaves the game due, to be tried
    again by a runner."""
    game_score(game_id=game_id)


@receiver(runner_idle, dispatch_uid="tournaments.send_table_notices")
def table_notices_sent(sender, **kwargs) -> None:
    send_table_notices()
