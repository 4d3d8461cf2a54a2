"""Every new user gets a profile the moment it is saved."""

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import Signal, receiver

from .models import Profile


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.create_profile")
def create_profile(sender, instance, created, raw=False, **kwargs):
    # Fixtures (raw saves) bring their own profiles, if any.
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


# Sent with ``user`` when someone's password changes (changed or reset): whatever acted for
# them on an older connection must stop (the games app closes their table sockets).
password_changed = Signal()
