"""What the games app does when accounts change: sockets never outlive a session."""

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from accounts.signals import password_changed

from .table_updates import end_user_sockets


@receiver(user_logged_out, dispatch_uid="games.close_sockets_on_logout")
def close_sockets_on_logout(sender, request, user, **kwargs):
    if user is not None:
        end_user_sockets(user.pk)


@receiver(password_changed, dispatch_uid="games.close_sockets_on_password_change")
def close_sockets_on_password_change(sender, user, **kwargs):
    end_user_sockets(user.pk)
