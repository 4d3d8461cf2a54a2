"""Password reset: the same answer, work and budget whatever the address; the account lookup
and the mail happen off the request path; mail budgets that an attacker cannot use up to
drop the owner's own request silently; links built from COINS_SITE_URL, never the Host."""

import html
import os
import queue
import re
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import reset_mail, services

from .helpers import throttled_count

RESET = "/accounts/password/reset/"
PASSWORD = "a-long-Passw0rd!"


@pytest.fixture(autouse=True)
def budgets(settings):
    settings.COINS_RESETS_PER_HOUR_FROM_ADDRESS = 10
    settings.COINS_RESETS_PER_HOUR_TO_EMAIL = 10
    settings.COINS_RESETS_PER_HOUR_TO_EMAIL_FROM_ADDRESS = 3
    settings.COINS_SITE_URL = "https://coins.example.org"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dora(django_user_model):
    return django_user_model.objects.create_user("dora", "dora@example.com", PASSWORD)


def ask(client, email, address="10.2.2.2", **extra):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address, **extra)


def links(messages) -> list[str]:
    return [re.search(r"\S+/accounts/reset/\S+/", m.body).group(0) for m in messages]


@pytest.mark.django_db(transaction=True)
def test_known_and_unknown_addresses_cost_the_request_the_same_work(client, dora, settings):
    settings.COINS_RESET_MAIL_IN_BACKGROUND = True
    answers, queries = [], []
    for email in ("dora@example.com", "nobody@example.com"):
        with CaptureQueriesContext(connection) as captured:
            answers.append(ask(client, email))
        queries.append([query["sql"] for query in captured.captured_queries])
    reset_mail.worker.wait_until_idle()

    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0]["Location"] == answers[1]["Location"] == "/accounts/password/reset/sent/"
    assert queries[0] == queries[1]  # the same work, so the same time
    assert not any("auth_user" in sql for sql in queries[0])  # no lookup in the request
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]  # sent in the background
    assert links(mail.outbox)[0].startswith("https://coins.example.org/accounts/reset/")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("allowed_hosts", "host"), [(None, "127.0.0.1:6666"), (["*"], "evil.example")]
)
def test_a_forged_host_header_does_not_change_the_link(client, dora, settings, allowed_hosts, host):
    if allowed_hosts:
        settings.ALLOWED_HOSTS = allowed_hosts
    assert ask(client, "dora@example.com", headers={"host": host}).status_code == 302
    (link,) = links(mail.outbox)
    assert link.startswith("https://coins.example.org/accounts/reset/")
    assert host not in mail.outbox[0].body and "coins.example.org" in mail.outbox[0].subject


@pytest.mark.django_db
def test_an_attacker_cannot_use_up_the_owners_own_mails(client, dora):
    for _ in range(5):
        assert ask(client, "dora@example.com", address="10.6.6.6").status_code == 302
    assert len(mail.outbox) == 3  # per e-mail address and requesting address
    refusals = throttled_count("reset-to-from")
    ask(client, "dora@example.com", address="10.6.6.6")
    assert throttled_count("reset-to-from") == refusals + 1
    assert ask(client, "DORA@example.com", address="10.7.7.7").status_code == 302  # dora
    assert len(mail.outbox) == 4 and mail.outbox[-1].to == ["dora@example.com"]


@pytest.mark.django_db
def test_one_mailbox_gets_at_most_ten_reset_mails_an_hour(client, dora):
    for address in ("10.8.0.1", "10.8.0.2", "10.8.0.3", "10.8.0.4"):
        for _ in range(3):
            ask(client, "dora@example.com", address=address)
    assert len(mail.outbox) == 10
    ask(client, "dora@example.com", address="10.8.0.5")
    assert len(mail.outbox) == 10


@pytest.mark.django_db
def test_too_many_requests_from_one_address_are_refused_with_the_reason(client, dora):
    for n in range(10):
        assert ask(client, f"x{n}@example.com", address="10.2.2.3").status_code == 302
    refused = ask(client, "dora@example.com", address="10.2.2.3")
    assert refused.status_code == 429 and refused["Retry-After"] == "3600"
    assert "Too many reset requests from your address" in refused.content.decode()
    assert mail.outbox == []
    assert ask(client, "dora@example.com", address="10.2.2.4").status_code == 302


@pytest.mark.django_db
def test_the_page_after_asking_states_the_budget_the_same_for_every_address(client, dora):
    pages = [
        html.unescape(client.get(ask(client, email).url).content.decode())
        for email in ("dora@example.com", "nobody@example.com")
    ]
    cards = [re.search(r'<section class="account-card">.*?</section>', p, re.S)[0] for p in pages]
    assert cards[0] == cards[1]
    assert "at most 3 of these e-mails an hour to one address" in pages[0]
    assert "The link in the latest e-mail you received works for 3 days" in pages[0]


def test_a_full_mail_queue_refuses_new_requests(settings):
    settings.COINS_RESET_MAIL_IN_BACKGROUND = True
    worker = reset_mail.MailWorker()
    worker.jobs = queue.Queue(maxsize=1)  # no sender thread: the queue stays full
    worker.submit("a@example.com", "en")
    with pytest.raises(reset_mail.MailQueueFull):
        worker.submit("b@example.com", "en")


@pytest.mark.django_db
def test_a_request_that_finds_the_queue_full_gets_the_busy_page(client, monkeypatch):
    def full(*args, **kwargs):
        raise reset_mail.MailQueueFull

    monkeypatch.setattr(services.worker, "submit", full)
    refusals = throttled_count("reset-mail-queue")
    response = ask(client, "dora@example.com")
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert throttled_count("reset-mail-queue") == refusals + 1


def site_url_with(**env) -> str:
    """COINS_SITE_URL as the settings compute it from this environment."""
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("COINS_SITE_URL", "ALLOWED_HOSTS", "DJANGO_HTTPS")
    }
    code = "import coins_site.settings as s; print(s.COINS_SITE_URL)"
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**environment, **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=django_settings.BASE_DIR,
    ).stdout.strip()


def test_the_site_url_comes_from_settings_never_from_a_request():
    assert site_url_with(COINS_SITE_URL="https://play.example.org") == "https://play.example.org"
    hosts = {"ALLOWED_HOSTS": "coins.example.org,www.example.org", "DJANGO_HTTPS": "1"}
    assert site_url_with(**hosts) == "https://coins.example.org"
    assert site_url_with(ALLOWED_HOSTS=".example.net") == "http://example.net"
    assert site_url_with(ALLOWED_HOSTS="*") == "http://localhost"
