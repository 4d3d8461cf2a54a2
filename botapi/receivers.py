"""What the Bot API adds to other pages: a bot account's player page offers a signed-in
person a challenge form."""

from django.dispatch import receiver

from accounts.selectors import is_bot_account
from games.signals import player_page

from .forms import ChallengeForm


@receiver(player_page, dispatch_uid="botapi.challenge_on_player_page")
def challenge_on_player_page(sender, player, viewer, **kwargs) -> dict:
    if not viewer.is_authenticated or viewer.pk == player.pk or not is_bot_account(player):
        return {}
    return {"challenge_form": ChallengeForm()}
