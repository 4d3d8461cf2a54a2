"""How the arena hears of the games app: an arena game's end is counted in its aftermath."""

from django.dispatch import receiver

from games.signals import game_over

from .services import game_score


@receiver(game_over, dispatch_uid="botarena.score_game")
def score_arena_game(sender, game_id: int, **kwargs) -> None:
    """Idempotent: a failure leaves the game due, to be tried again by a runner."""
    game_score(game_id=game_id)
