"""Give every user that existed before profiles one."""

from django.conf import settings
from django.db import migrations


def create_missing_profiles(apps, schema_editor):
    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    User = apps.get_model(app_label, model_name)
    Profile = apps.get_model("accounts", "Profile")
    db = schema_editor.connection.alias
    missing = User.objects.using(db).filter(profile__isnull=True).values_list("pk", flat=True)
    Profile.objects.using(db).bulk_create(
        [Profile(user_id=pk) for pk in missing.iterator()], batch_size=500
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(create_missing_profiles, migrations.RunPython.noop, elidable=True),
    ]
