"""The person behind a session is read with their profile in one statement
(``accounts.backends.PersonBackend``), as the ORM would build both; sessions logged in before
it, through Django's ``ModelBackend``, still log their person in."""

from __future__ import annotations

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.backends import EARLIER_BACKEND, PERSON_BACKEND, PersonBackend, person_with_profile
from accounts.models import Profile
from accounts.selectors import cached_profile
from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def fields_of(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def test_the_person_and_their_profile_come_in_one_statement_as_the_orm_reads_them():
    ann = User.objects.create_user("ann", password="pw-123456789")
    Profile.objects.update_or_create(user=ann, defaults={"display_name": "Ann B", "language": "fr"})
    with CaptureQueriesContext(connection) as reads:
        person = PersonBackend().get_user(ann.pk)
        profile = cached_profile(person)
        assert person.profile is profile
    assert len(reads.captured_queries) == 1
    orm = User.objects.select_related("profile").get(pk=ann.pk)
    assert fields_of(person) == fields_of(orm) and fields_of(profile) == fields_of(orm.profile)
    assert profile.user is person and person._state.adding is False
    assert person.check_password("pw-123456789")


def test_a_person_without_a_profile_has_none_cached():
    bob = User.objects.create_user("bob")
    Profile.objects.filter(user=bob).delete()
    person = person_with_profile(bob.pk)
    with CaptureQueriesContext(connection) as reads:
        assert cached_profile(person) is None
    assert reads.captured_queries == []


@pytest.mark.parametrize("user_id", [987654321, "not a number", None, 2**70])
def test_no_such_person_is_none(user_id):
    assert PersonBackend().get_user(user_id) is None


def test_an_inactive_person_is_not_logged_in():
    cid = User.objects.create_user("cid", is_active=False)
    assert PersonBackend().get_user(cid.pk) is None
    assert PersonBackend().get_user(str(User.objects.create_user("dee").pk)).username == "dee"


@pytest.mark.parametrize("backend", [EARLIER_BACKEND, PERSON_BACKEND])
def test_sessions_from_before_and_after_the_backend_log_their_person_in(client, rf, backend):
    eve = User.objects.create_user("eve", password="pw-123456789")
    session = SessionStore()
    session[SESSION_KEY] = str(eve.pk)
    session[BACKEND_SESSION_KEY] = backend
    session[HASH_SESSION_KEY] = eve.get_session_auth_hash()
    session.create()
    request = rf.get("/")
    request.session = SessionStore(session.session_key)
    assert get_user(request) == eve
    client.cookies["sessionid"] = session.session_key
    page = client.get("/accounts/profile/")
    assert page.status_code == 200 and b"eve" in page.content


def test_logging_in_keeps_the_person_backend_in_the_session(client):
    User.objects.create_user("fay", password="pw-123456789")
    client.post("/accounts/login/", {"username": "fay", "password": "pw-123456789"})
    assert client.session[BACKEND_SESSION_KEY] == PERSON_BACKEND
