"""Fill the seats' history copies and the players' stats from the games already played."""

from django.db import migrations
from django.db.models import Count, Exists, OuterRef, Q, Subquery


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    PlayerStats = apps.get_model("games", "PlayerStats")
    game = Game.objects.filter(pk=OuterRef("game_id"))
    Seat.objects.update(
        started_at=Subquery(game.values("started_at")[:1]),
        target=Subquery(game.values("target")[:1]),
        with_bots=Exists(Seat.objects.filter(game_id=OuterRef("game_id")).exclude(bot="")),
    )
    finished = Game.objects.filter(status="finished", started_at__isnull=False)
    abandoned = Game.objects.filter(status="abandoned", started_at__isnull=False)
    winner = Game.objects.filter(pk=OuterRef("game_id"), winner_seat=OuterRef("number"))
    Seat.objects.filter(game__in=finished).filter(Exists(winner)).update(outcome="won")
    Seat.objects.filter(game__in=finished).filter(~Exists(winner)).update(outcome="lost")
    Seat.objects.filter(game__in=abandoned).update(outcome="abandoned")
    counts = (
        Seat.objects.filter(user__isnull=False)
        .exclude(outcome="")
        .values("user_id")
        .annotate(
            finished=Count("pk", filter=~Q(outcome="abandoned")),
            won=Count("pk", filter=Q(outcome="won")),
            abandoned=Count("pk", filter=Q(outcome="abandoned")),
        )
    )
    PlayerStats.objects.bulk_create(
        [PlayerStats(**row) for row in counts.order_by("user_id")], batch_size=2000
    )


class Migration(migrations.Migration):
    dependencies = [("games", "0012_seat_history")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
