"""'Your tournament table is ready' by Web Push, through an outbox (``TableReadyNotice``):
a row is written in the transaction that seats the person, so it is never lost with a
process, and sent by the runners' spare time, once (two runners never send one twice:
rows are claimed ``SKIP LOCKED``). Nothing goes to a person already at the table, nor for a
game that is over."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors import preferred_language
from common.kept_rows import row_exists
from games.models import Game
from notifications.services import at_the_table, drain_outbox, push_configured, push_to

from .models import TableReadyNotice, TournamentGame


def note_table_ready(*, tournament_game: TournamentGame, people: list) -> None:
    """Queue a notice for each of ``people`` (just seated) who asked for Web Push."""
    if not push_configured():
        return
    TableReadyNotice.objects.bulk_create(
        [
            TableReadyNotice(user=person, game_id=tournament_game.game_id)
            for person in people
            if getattr(person, "profile", None) and person.profile.turn_push
        ],
        ignore_conflicts=True,
    )


def send_table_notices(now: datetime | None = None) -> int:
    """Send the "your table is ready" notices waiting; how many reached a browser."""
    if not row_exists(TableReadyNotice, sent_at=None):  # nearly always: a plain statement
        return 0
    now = now or timezone.now()
    waiting = (
        TableReadyNotice.objects.filter(sent_at=None)
        .select_related("game__tournament_game__tournament", "user__profile")
        .order_by("pk")
    )
    return drain_outbox(waiting, _send_one, now)


def _send_one(notice: TableReadyNotice, now: datetime) -> str:
    game = notice.game
    if game.status != Game.Status.IN_PROGRESS:
        return "moved-on"
    if at_the_table(notice.user_id, game.pk, now):
        return "at-table"
    tournament = game.tournament_game.tournament
    with translation.override(preferred_language(notice.user) or settings.LANGUAGE_CODE):
        message = {
            "title": _("Your tournament table is ready"),
            "body": _("%(tournament)s: your table is ready. Play now!")
            % {"tournament": tournament.name},
            "url": settings.COINS_SITE_URL.rstrip("/") + game.get_absolute_url(),
            "tag": f"coins-tournament-{game.pk}",
        }
        return "sent" if push_to(notice.user, message, now) else "nowhere"
