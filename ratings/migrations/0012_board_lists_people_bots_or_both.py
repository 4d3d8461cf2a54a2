"""A board lists people, bots or both (was: bots listed or not); boards that hid bots list
people only."""

from django.db import migrations, models


def from_list_bots(apps, schema_editor):
    Leaderboard = apps.get_model("ratings", "Leaderboard")
    Leaderboard.objects.filter(list_bots=False).update(listed="people")


def to_list_bots(apps, schema_editor):
    Leaderboard = apps.get_model("ratings", "Leaderboard")
    Leaderboard.objects.filter(listed="people").update(list_bots=False)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0011_ranked_lines")]

    operations = [
        migrations.AddField(
            model_name="leaderboard",
            name="listed",
            field=models.CharField(
                choices=[("people", "People only"), ("all", "People and bots"), ("bots", "Bots only")],
                default="all",
                help_text="Whose lines are listed: bots are the site's levels and bot accounts.",
                max_length=8,
            ),
        ),
        migrations.RunPython(from_list_bots, to_list_bots),
        migrations.RemoveField(model_name="leaderboard", name="list_bots"),
    ]
