"""Build the standings rows of every open board from the rating events kept so far."""

from django.db import migrations


def build(apps, schema_editor):
    from ratings.standings import standings_rebuild

    Leaderboard = apps.get_model("ratings", "Leaderboard")
    if Leaderboard.objects.filter(closed_at=None).exists():
        standings_rebuild()


class Migration(migrations.Migration):
    dependencies = [("ratings", "0005_standings"), ("games", "0013_backfill_seat_history")]

    operations = [migrations.RunPython(build, migrations.RunPython.noop)]
