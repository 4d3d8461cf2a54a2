"""Each profile keeps its username's lookalike key, unique (accounts/names.py). Existing
users get theirs, oldest first; a user whose name already looked like an older user's keeps
an empty key (the accounts stay as they are, and no new lookalike of either can be made)."""

import logging

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import migrations, models

log = logging.getLogger(__name__)


def fill_keys(apps, schema_editor):
    from accounts.names import lookalike_key

    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    User = apps.get_model(app_label, model_name)
    Profile = apps.get_model("accounts", "Profile")
    db = schema_editor.connection.alias
    username_field = get_user_model().USERNAME_FIELD  # historical models lack it
    owners = dict(
        User.objects.using(db).order_by("pk").values_list("pk", username_field).iterator()
    )
    seen, changed = set(), []
    for profile in Profile.objects.using(db).order_by("user_id").iterator():
        key = lookalike_key(owners.get(profile.user_id, ""))
        if not key or key in seen:
            log.warning("User %s looks like an older user's name: no lookalike key", profile.user_id)
            continue
        seen.add(key)
        profile.username_skeleton = key
        changed.append(profile)
    Profile.objects.using(db).bulk_update(changed, ["username_skeleton"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_languages_of_the_rules"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="username_skeleton",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=600,
                null=True,
                unique=True,
                verbose_name="username skeleton",
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
