"""What the games app does when accounts change (sockets never outlive a session), and its
own housekeeping on the table runners."""

from datetime import timedelta

from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import Profile
from accounts.signals import password_changed
from games.models import Game, Presence
from games.realtime.push import end_user_sockets
from games.signals import runner_idle


@receiver(user_logged_out, dispatch_uid="games.close_sockets_on_logout")
def close_sockets_on_logout(sender, request, user, **kwargs):
    if user is not None:
        end_user_sockets(user.pk)


@receiver(password_changed, dispatch_uid="games.close_sockets_on_password_change")
def close_sockets_on_password_change(sender, user, **kwargs):
    end_user_sockets(user.pk)


@receiver(post_save, sender=Profile, dispatch_uid="games.tables_see_profile_changes")
def tables_see_profile_changes(sender, instance, created, update_fields=None, **kwargs):
    """A person's tables load their seats afresh after a change of profile (their name, the
    pause after a trick): every process's cached copy of a game is for its last save."""
    if created or (update_fields is not None and "trick_pause" not in update_fields):
        return
    Game.objects.filter(seats__user_id=instance.user_id, status=Game.Status.IN_PROGRESS).update(
        updated_at=timezone.now()
    )


@receiver(runner_idle, dispatch_uid="games.forget_dead_sockets")
def forget_dead_sockets(sender, **kwargs):
    """Presence rows left by sockets of killed processes stop counting after a minute or so;
    an hour later they are deleted."""
    Presence.objects.filter(seen_at__lt=timezone.now() - timedelta(hours=1)).delete()
