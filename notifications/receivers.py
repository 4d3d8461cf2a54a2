"""Notifications listen to the tables: a slow game's turn is noted, and the runners' spare
time sends the notices due."""

from django.dispatch import receiver

from games.signals import runner_idle, turn_began

from .services import note_turn, send_due_notices


@receiver(turn_began, dispatch_uid="notifications.note_turn")
def turn_noted(sender, game, seat, **kwargs):
    note_turn(game=game, user=seat.user)


@receiver(runner_idle, dispatch_uid="notifications.send_due_notices")
def notices_sent(sender, **kwargs):
    send_due_notices()
