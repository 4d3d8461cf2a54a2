"""'Your tournament table is ready' by Web Push: queued when people who asked for push are
seated (in the same transaction), sent once by the runners' spare time, encrypted to their
browser; not sent to someone already at the table, nor queued for someone who did not ask."""

import json

import http_ece
import pytest
from django.utils import timezone

from accounts.models import Profile
from games.models import Presence
from notifications.models import PushSubscription
from tests.notifications.test_turn_notices import b64, browser_keys
from tournaments.models import TableReadyNotice, TournamentGame
from tournaments.notices import send_table_notices
from tournaments.pairing import tournament_advance
from tournaments.services import entry_join

pytestmark = pytest.mark.django_db


def seated_arena(make_tournament, persons):
    tournament = make_tournament("arena", name="Night arena")
    for person in persons:
        entry_join(tournament_id=tournament.pk, user=person)
    assert tournament_advance(tournament_id=tournament.pk) == 1
    return TournamentGame.objects.get().game


def test_a_seated_person_who_asked_gets_one_push(make_tournament, people, vapid, push_service):
    first, second, third = people(3)
    Profile.objects.filter(user__in=[first, second]).update(turn_push=True)
    key, p256dh, auth = browser_keys()
    PushSubscription.objects.create(
        user=first, endpoint=push_service.url + "a", p256dh=p256dh, auth=b64(auth)
    )
    game = seated_arena(make_tournament, [first, second, third])
    assert set(TableReadyNotice.objects.values_list("user_id", flat=True)) == {
        first.pk,
        second.pk,
    }  # the third did not ask
    Presence.objects.create(game=game, channel="c2", user=second, seen_at=timezone.now())
    assert send_table_notices() == 1
    assert send_table_notices() == 0  # once
    outcomes = dict(TableReadyNotice.objects.values_list("user_id", "outcome"))
    assert outcomes == {first.pk: "sent", second.pk: "at-table"}
    _, body = push_service.received[-1]
    message = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth))
    assert message["title"] == "Your tournament table is ready"
    assert "Night arena" in message["body"] and message["url"].endswith(game.get_absolute_url())


def test_nothing_is_queued_without_push_keys(make_tournament, people, settings):
    settings.COINS_VAPID_PUBLIC_KEY = settings.COINS_VAPID_PRIVATE_KEY = ""
    persons = people(3)
    Profile.objects.filter(user__in=persons).update(turn_push=True)
    seated_arena(make_tournament, persons)
    assert not TableReadyNotice.objects.exists()
