"""How the games app keeps a duplicate game: private to its player until its day closes."""

from django.dispatch import receiver

from games.signals import table_policy

from .selectors import policy_of_game


@receiver(table_policy, dispatch_uid="duplicate.table_policy")
def duplicate_table_policy(sender, game, **kwargs):
    return policy_of_game(game)
