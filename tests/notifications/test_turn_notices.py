"""'Your turn' in slow games: a notice is queued with the move, and sent by the runners'
background work only if it is still the person's turn and they are not at the table; by
e-mail, and by Web Push to a real (local) push service that decrypts what it receives."""

import base64
import json
import os
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Profile
from games.engine import CARD_CODES
from games.models import Game, Presence
from games.table import flow
from games.table import seats as table_seats
from games.table.loading import game_load
from notifications.models import PushSubscription, TurnNotice
from notifications.services import NOTICE_AFTER, send_due_notices
from tests.games.helpers import serve_due

pytestmark = pytest.mark.django_db

DAY = 86400


@pytest.fixture
def alice(django_user_model):
    user = django_user_model.objects.create_user("alice", "alice@example.com", "pw-Coins-123")
    Profile.objects.filter(user=user).update(turn_email=True)
    return django_user_model.objects.get(pk=user.pk)


def day_game(user, clock=DAY) -> Game:
    """A game against two bots, played up to the person's turn."""
    game = table_seats.game_create(
        creator=user, target=10, seat_kinds=["me", "careful", "careful"], clock=clock
    )
    serve_due(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game_load(game).state.to_play == 0
    return game


def later(minutes=3):
    return timezone.now() + timedelta(minutes=minutes)


def test_a_turn_in_a_slow_game_is_mailed_in_the_persons_language(alice):
    Profile.objects.filter(user=alice).update(language="es")
    game = day_game(alice)
    notice = TurnNotice.objects.get(user=alice, game=game)
    assert notice.moves == game.moves and notice.sent_at is None
    assert send_due_notices(now=timezone.now()) == 0  # not yet due: they may be playing
    assert send_due_notices(now=timezone.now() + NOTICE_AFTER + timedelta(seconds=1)) == 1
    message = mail.outbox[-1]
    assert message.to == ["alice@example.com"]
    assert f"/games/{game.pk}/" in message.body and str(game.pk) in message.subject
    assert message.subject == f"Te toca en la mesa {game.pk}"  # Spanish, her language
    notice.refresh_from_db()
    assert notice.outcome == "sent" and notice.sent_at is not None
    assert send_due_notices(now=later(10)) == 0  # once
    assert len(mail.outbox) == 1


def test_a_person_at_the_table_is_not_mailed(alice):
    game = day_game(alice)
    Presence.objects.create(game=game, user=alice, channel="tab", seen_at=later())
    assert send_due_notices(now=later()) == 0
    assert TurnNotice.objects.get().outcome == "at-table" and not mail.outbox


def test_a_turn_played_before_the_notice_is_due_sends_nothing(alice):
    game = day_game(alice)
    hand = game_load(game).state.hands[0]
    flow.play_card(game_id=game.pk, user=alice, card=CARD_CODES[hand[0]])
    send_due_notices(now=later())
    outcomes = list(TurnNotice.objects.order_by("moves").values_list("outcome", flat=True))
    assert outcomes[0] == "moved-on"  # her next turn (the bots answered at once) is another
    assert len(mail.outbox) == len(outcomes) - 1


@pytest.mark.parametrize("clock", [None, 30, 60])
def test_fast_games_send_no_notices(alice, clock):
    day_game(alice, clock=clock)
    assert not TurnNotice.objects.exists()


def test_nobody_is_told_who_did_not_ask(alice):
    Profile.objects.filter(user=alice).update(turn_email=False)
    day_game(alice)
    assert not TurnNotice.objects.exists()


def test_a_crash_before_sending_leaves_the_notice_for_the_next_round(alice, monkeypatch):
    day_game(alice)

    def broken(*args, **kwargs):
        raise RuntimeError("killed mid-way")

    monkeypatch.setattr("notifications.services._send_one", broken)
    with pytest.raises(RuntimeError):
        send_due_notices(now=later())
    assert TurnNotice.objects.get().sent_at is None  # rolled back: still due
    monkeypatch.undo()
    assert send_due_notices(now=later()) == 1


# -- Web Push ---------------------------------------------------------------------------------


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class PushService:
    """A push service on 127.0.0.1: records each request and answers ``status``."""

    def __init__(self):
        self.received: list[tuple[dict, bytes]] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append(({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_port}/push/"

    def close(self):
        self.server.shutdown()


@pytest.fixture
def vapid(settings, capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    settings.COINS_VAPID_PUBLIC_KEY = lines["COINS_VAPID_PUBLIC_KEY"]
    settings.COINS_VAPID_PRIVATE_KEY = lines["COINS_VAPID_PRIVATE_KEY"]
    settings.COINS_PUSH_ALLOW_HTTP = True
    return lines


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


def browser_keys():
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    auth = os.urandom(16)
    return key, b64(public), auth


def subscribe(client, endpoint, p256dh, auth):
    body = {"subscription": {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": b64(auth)}}}
    return client.post("/notifications/push/", json.dumps(body), content_type="application/json")


def test_a_subscribed_browser_gets_the_turn_encrypted_and_signed(
    client, alice, vapid, push_service
):
    Profile.objects.filter(user=alice).update(turn_email=False, turn_push=True)
    key, p256dh, auth = browser_keys()
    client.force_login(alice)
    assert subscribe(client, push_service.url + "a1", p256dh, auth).json() == {"ok": True}
    game = day_game(alice)
    assert send_due_notices(now=later()) == 1
    headers, body = push_service.received[-1]
    assert headers["content-encoding"] == "aes128gcm"
    assert vapid["COINS_VAPID_PUBLIC_KEY"] in headers["authorization"]  # vapid t=..., k=...
    message = json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth))
    assert message["url"].endswith(f"/games/{game.pk}/") and str(game.pk) in message["title"]
    assert PushSubscription.objects.get().last_sent_at is not None


def test_a_subscription_the_push_service_says_is_gone_is_forgotten(
    client, alice, vapid, push_service
):
    Profile.objects.filter(user=alice).update(turn_email=False, turn_push=True)
    client.force_login(alice)
    subscribe(client, push_service.url + "gone", *browser_keys()[1:])
    push_service.status = 410
    day_game(alice)
    assert send_due_notices(now=later()) == 0
    assert not PushSubscription.objects.exists()
    assert TurnNotice.objects.get().outcome == "nowhere"


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"subscription": "x"}',
        b'{"subscription": {"endpoint": "https://push.example/1", "keys": {"p256dh": 5}}}',
        b'{"subscription": {"endpoint": "ftp://push.example/1",'
        b' "keys": {"p256dh": "a", "auth": "b"}}}',
    ],
)
def test_a_bad_subscription_is_refused_with_a_reason(client, alice, vapid, settings, body):
    settings.COINS_PUSH_ALLOW_HTTP = False
    client.force_login(alice)
    response = client.post("/notifications/push/", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_subscribing_needs_a_person_and_a_site_with_keys(client, alice):
    assert (
        client.post("/notifications/push/", b"{}", content_type="application/json").status_code
        == 403
    )
    client.force_login(alice)
    response = subscribe(client, "https://push.example/1", "a", b"b")
    assert response.status_code == 400 and "not set up" in response.json()["error"]


def test_a_person_keeps_at_most_ten_browsers_the_newest(client, alice, vapid):
    client.force_login(alice)
    for n in range(12):
        subscribe(client, f"https://push.example/{n}", "key", b"auth")
    endpoints = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert len(endpoints) == 10 and "https://push.example/11" in endpoints
    client.post(
        "/notifications/push/",
        json.dumps({"forget": "https://push.example/11"}),
        content_type="application/json",
    )
    assert PushSubscription.objects.count() == 9


def test_the_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert b"showNotification" in response.content


def test_settings_offer_push_only_with_keys_and_mail_only_with_an_address(
    client, django_user_model, settings
):
    settings.COINS_VAPID_PUBLIC_KEY = settings.COINS_VAPID_PRIVATE_KEY = ""
    user = django_user_model.objects.create_user("noemail", "", "pw-Coins-123")
    client.force_login(user)
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="turn_push"' not in page and 'name="turn_email"' in page
    response = client.post("/accounts/profile/", {"language": "", "turn_email": "on"})
    assert response.status_code == 200 and "no e-mail address" in response.content.decode()
    assert not Profile.objects.get(user=user).turn_email
    settings.COINS_VAPID_PUBLIC_KEY = settings.COINS_VAPID_PRIVATE_KEY = "k"
    page = client.get("/accounts/profile/").content.decode()
    assert 'name="turn_push"' in page and 'data-push-key="k"' in page


def test_the_plain_look_for_a_due_notice_agrees_with_the_outbox_query(alice):
    """Every runner asks every second; the plain statement that answers first says "due"
    exactly when the outbox's query finds a notice: at its moment to the microsecond, not a
    microsecond before, and never once it is sent."""
    from notifications.services import _notice_due

    game = day_game(alice)
    notice = TurnNotice.objects.get(user=alice, game=game)
    for now in (notice.due_at - timedelta(microseconds=1), notice.due_at, later(10)):
        orm = TurnNotice.objects.filter(sent_at=None, due_at__lte=now).exists()
        assert _notice_due(now) == orm
    assert not _notice_due(notice.due_at - timedelta(microseconds=1))
    assert send_due_notices(now=notice.due_at) == 1
    assert not _notice_due(later(10)) and not TurnNotice.objects.filter(sent_at=None).exists()
