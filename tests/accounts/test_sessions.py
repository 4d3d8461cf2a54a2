"""Sessions are read by a statement written once (``accounts/sessions.py``): what Django's own
database store reads, with its answers for a missing, expired or unknown key."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_uses_the_store(settings):
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_a_saved_session_reads_back_as_djangos_store_reads_it(django_assert_num_queries):
    store = SessionStore()
    store["coins"] = {"seat": 2, "cards": ["12O", "3C"]}
    store.set_expiry(3600)
    store.save()
    with django_assert_num_queries(1):
        ours = SessionStore(store.session_key)
        assert ours["coins"] == {"seat": 2, "cards": ["12O", "3C"]}
    theirs = DjangoStore(store.session_key)
    assert dict(ours.items()) == dict(theirs.items())
    assert ours.session_key == store.session_key


def test_a_row_read_is_the_orms_field_by_field():
    store = SessionStore()
    store["x"] = 1
    store.save()
    ours = SessionStore(store.session_key)._get_session_from_db()
    orm = Session.objects.get(session_key=store.session_key)
    for field in Session._meta.concrete_fields:
        assert getattr(ours, field.attname) == getattr(orm, field.attname), field.name
    assert ours._state.adding is False


@pytest.mark.parametrize("case", ["unknown", "expired"])
def test_an_unknown_or_expired_key_reads_as_a_new_empty_session(case):
    store = SessionStore()
    store["x"] = 1
    store.save()
    key = store.session_key
    if case == "expired":
        Session.objects.filter(session_key=key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
    else:
        key = "k" * 32
    ours, theirs = SessionStore(key), DjangoStore(key)
    assert ours.load() == theirs.load() == {}
    assert ours.session_key is None and theirs.session_key is None  # a new key when saved
    ours["y"] = 2
    ours.save()
    assert ours.session_key not in (None, key)


def test_logging_in_and_out_goes_through_the_store(client, django_user_model):
    user = django_user_model.objects.create_user("bea", password="tricky-coins-42")
    client.force_login(user)
    key = client.session.session_key
    assert SessionStore(key).get("_auth_user_id") == str(user.pk)
    client.post("/accounts/logout/")
    assert SessionStore(key).load() == {}
