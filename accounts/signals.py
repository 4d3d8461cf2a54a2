"""Every new user gets a profile the moment it is saved, holding the username's lookalike key."""

import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from .models import Profile
from .names import lookalike_key

log = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.create_profile")
def create_profile(sender, instance, created, raw=False, update_fields=None, **kwargs):
    # Fixtures (raw saves) bring their own profiles, if any.
    if raw:
        return
    key = lookalike_key(instance.get_username())
    if created:
        # In the transaction that creates the user: a lookalike of an existing name fails
        # here (IntegrityError), and the user is not created either.
        Profile.objects.get_or_create(user=instance, defaults={"username_skeleton": key})
    elif update_fields is None or instance.USERNAME_FIELD in update_fields:
        follow_rename(instance, key)


def follow_rename(user, key: str) -> None:
    """Keep the key in step with a renamed user. Forms refuse lookalike renames; one made
    another way (or a user who already looked like another when keys began) keeps none."""
    profiles = Profile.objects.filter(user=user).exclude(username_skeleton=key)
    try:
        with transaction.atomic():
            profiles.update(username_skeleton=key)
    except IntegrityError:
        log.warning("User %s looks like another user's name: no lookalike key", user.pk)
        profiles.update(username_skeleton=None)


# Sent with ``user`` when someone's password changes (changed or reset): whatever acted for
# them on an older connection must stop (the games app closes their table sockets).
password_changed = Signal()
