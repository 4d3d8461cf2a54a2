"""Put tables that existed before the runners on the schedule: running and waiting tables
are due now (a runner looks at each), as are ended games not rated yet."""

from django.db import migrations
from django.utils import timezone


def schedule(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    now = timezone.now()
    Game.objects.filter(status__in=["in_progress", "waiting"], due_at=None).update(due_at=now)
    Game.objects.filter(
        status__in=["finished", "abandoned"],
        started_at__isnull=False,
        is_rated=True,
        rating_events__isnull=True,
        due_at=None,
    ).update(due_at=now)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_find_a_game"),
        ("ratings", "0001_initial"),
    ]

    operations = [migrations.RunPython(schedule, migrations.RunPython.noop)]
