"""Telling people it is their turn in slow games, by e-mail and by Web Push.

A notice is written in the same transaction as the move that made it someone's turn, and
sent later by the table runners' background work (``send_due_notices``), so a notice is
never lost with a process and never holds up a card. It goes out only if, when it is due,
it is still that person's turn and they are not at the table; a person who plays from the
table page is never told what they can see.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta
from functools import cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.selectors import preferred_language, public_name
from common.kept_rows import adapted_moment, column, table_name
from games.models import Game, Presence
from games.realtime.presence import STALE_AFTER

from .models import PushSubscription, TurnNotice

log = logging.getLogger(__name__)

NOTICE_AFTER = timedelta(minutes=2)  # a turn this old, still waiting, is worth a notice
SENT_AT_ONCE = 20  # notices one round sends
MAX_SUBSCRIPTIONS = 10  # browsers one person may have notified
PUSH_TIMEOUT = 10  # seconds for a push service to answer


class SubscriptionRefused(Exception):
    """A push subscription that cannot be kept; the message says why."""


def push_configured() -> bool:
    return bool(settings.COINS_VAPID_PUBLIC_KEY and settings.COINS_VAPID_PRIVATE_KEY)


def wants_notice(user) -> bool:
    profile = getattr(user, "profile", None)
    if profile is None:
        return False
    by_mail = profile.turn_email and bool(user.email)
    return by_mail or (profile.turn_push and push_configured())


def note_turn(*, game: Game, user, now: datetime | None = None) -> None:
    """Queue a notice for ``user``, whose turn it now is in ``game`` (inside the move's
    transaction), if they asked for one."""
    if not wants_notice(user):
        return
    due = (now or timezone.now()) + NOTICE_AFTER
    TurnNotice.objects.get_or_create(
        user=user, game_id=game.pk, moves=game.moves, defaults={"due_at": due}
    )


# -- sending --------------------------------------------------------------------------------


def drain_outbox(waiting, send_one, now: datetime) -> int:
    """Send the notices of ``waiting`` (an outbox queryset, in order): claim at most
    ``SENT_AT_ONCE`` under row locks (``SKIP LOCKED``: two runners never send one twice),
    mark each with ``send_one(notice, now)``'s outcome; return how many were "sent"."""
    with transaction.atomic():
        due = list(waiting.select_for_update(skip_locked=True, of=("self",))[:SENT_AT_ONCE])
        for notice in due:
            notice.outcome = send_one(notice, now)
            notice.sent_at = now
        waiting.model.objects.bulk_update(due, ["outcome", "sent_at"])
    return sum(notice.outcome == "sent" for notice in due)


def at_the_table(user_id: int, game_id: int, now: datetime) -> bool:
    """Whether the person has a live socket at the game's table (they see it already)."""
    return Presence.objects.filter(
        user_id=user_id, game_id=game_id, seen_at__gte=now - STALE_AFTER
    ).exists()


def send_due_notices(now: datetime | None = None) -> int:
    """Send the turn notices that are due; return how many went out. Every runner asks
    every second, and nearly always none is due: a plain statement says so first (the
    locked read with its joins took 0.8 ms of CPU to build, a quarter of that work)."""
    now = now or timezone.now()
    if not _notice_due(now):
        return 0
    waiting = (
        TurnNotice.objects.filter(sent_at=None, due_at__lte=now)
        .select_related("game", "user__profile")
        .order_by("due_at")
    )
    return drain_outbox(waiting, _send_one, now)


def _notice_due(now: datetime) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(_notice_due_statement(connection.vendor), [adapted_moment(now)])
        return cursor.fetchone() is not None


@cache
def _notice_due_statement(vendor: str) -> str:
    sent, due = column(TurnNotice, "sent_at"), column(TurnNotice, "due_at")
    return f"SELECT 1 FROM {table_name(TurnNotice)} WHERE {sent} IS NULL AND {due} <= %s LIMIT 1"


def _send_one(notice: TurnNotice, now: datetime) -> str:
    game = notice.game
    if game.status != Game.Status.IN_PROGRESS or game.moves != notice.moves:
        return "moved-on"  # played, or the game ended, before the notice was due
    if at_the_table(notice.user_id, game.pk, now):
        return "at-table"
    user = notice.user
    with translation.override(preferred_language(user) or settings.LANGUAGE_CODE):
        message = turn_message(game, user)
        reached = False
        if user.profile.turn_email and user.email:
            reached |= _mail(user, message)
        if user.profile.turn_push and push_configured():
            reached |= _push(user, message, now)
    return "sent" if reached else "nowhere"


def turn_message(game: Game, user) -> dict:
    """What a notice says, in the person's language (the caller activates it)."""
    others = [
        public_name(seat.user) if seat.user_id else _("a bot")
        for seat in game.seats.select_related("user__profile").order_by("number")
        if seat.user_id != user.pk
    ]
    url = settings.COINS_SITE_URL.rstrip("/") + f"/games/{game.pk}/"
    return {
        "title": _("Your turn at table %(number)d") % {"number": game.pk},
        "body": _("It is your turn to play against %(others)s.") % {"others": " · ".join(others)},
        "url": url,
        "tag": f"coins-turn-{game.pk}",
    }


def _mail(user, message: dict) -> bool:
    body = "\n\n".join(
        [
            message["body"],
            message["url"],
            _("You get this e-mail because you asked for it in your settings: %(url)s")
            % {"url": settings.COINS_SITE_URL.rstrip("/") + "/accounts/profile/"},
        ]
    )
    try:
        send_mail(message["title"], body, None, [user.email])
    except Exception as error:  # a mail server down: logged, the game goes on
        log.warning("Could not mail %s their turn: %s", user.pk, error)
        return False
    return True


def push_to(user, message: dict, now: datetime | None = None) -> bool:
    """Send ``message`` (title, body, url, tag) to the browsers of ``user`` if they asked
    for Web Push and the site has keys; whether one browser took it. For other apps'
    notices (tournaments: "your table is ready")."""
    if not (push_configured() and getattr(user, "profile", None) and user.profile.turn_push):
        return False
    return _push(user, message, now or timezone.now())


def _push(user, message: dict, now: datetime) -> bool:
    from pywebpush import WebPushException, webpush  # imported when a push is due only

    reached = False
    for subscription in PushSubscription.objects.filter(user=user):
        try:
            webpush(
                subscription_info={
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=json.dumps(message),
                vapid_private_key=settings.COINS_VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.COINS_VAPID_SUBJECT},
                timeout=PUSH_TIMEOUT,
                ttl=3600,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):  # the browser unsubscribed: forget it
                subscription.delete()
            else:
                log.warning("Push to %s failed: %s", subscription.pk, error)
            continue
        except Exception as error:  # the push service unreachable: logged, next one
            log.warning("Push to %s failed: %s", subscription.pk, error)
            continue
        subscription.last_sent_at = now
        subscription.save(update_fields=["last_sent_at"])
        reached = True
    return reached


# -- subscriptions --------------------------------------------------------------------------


def subscribe(*, user, data: object) -> PushSubscription:
    """Keep a browser's subscription (``PushSubscription.toJSON()``) for ``user``."""
    if not push_configured():
        raise SubscriptionRefused(_("Notifications are not set up on this site."))
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise SubscriptionRefused(_("That is not a push subscription."))
    endpoint, keys = data.get("endpoint"), data["keys"]
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    fields = (endpoint, p256dh, auth)
    if not all(isinstance(value, str) and value for value in fields):
        raise SubscriptionRefused(_("That is not a push subscription."))
    if not (endpoint.startswith("https://") or settings.COINS_PUSH_ALLOW_HTTP):
        raise SubscriptionRefused(_("That is not a push subscription."))
    if len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        raise SubscriptionRefused(_("That is not a push subscription."))
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = PushSubscription.objects.filter(user=user)
        if not mine.filter(endpoint=endpoint).exists() and mine.count() >= MAX_SUBSCRIPTIONS:
            oldest = mine.order_by("created_at").first()
            oldest.delete()  # an old browser makes room for the new one
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth}
        )
    return subscription


def unsubscribe(*, user, endpoint: object) -> None:
    if isinstance(endpoint, str):
        PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
