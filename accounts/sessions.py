"""Django's database sessions, each read by a statement written once.

Every page and every socket that carries a session cookie starts by reading its session.
Building the ORM's query for it (``Session.objects.get(session_key=..., expire_date__gt=...)``)
cost more CPU than PostgreSQL's answer: 4.5% of a server's CPU in ``bench_openings``, a
socket's opening (docs/benchmarks.md, twenty-seventh sitting). Here the statement is written
once per database vendor and the row becomes a ``Session`` as the ORM builds it
(``common.kept_rows``); everything else (decoding, saving, expiry, cycling the key) is
Django's own.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.backends import db
from django.db import connection
from django.utils import timezone

from common.kept_rows import adapted_moment, column, column_list, row_instance, table_name

from .backends import EARLIER_BACKEND, PERSON_BACKEND


class SessionStore(db.SessionStore):
    def load(self):
        """The session's data; one logged in through Django's ``ModelBackend`` (before
        ``accounts.backends.PersonBackend``) now reads its person through that backend."""
        data = super().load()
        if data.get(BACKEND_SESSION_KEY) == EARLIER_BACKEND:
            data[BACKEND_SESSION_KEY] = PERSON_BACKEND
        return data

    def _get_session_from_db(self):
        """The session's row if it exists and has not expired, else None (and the key is
        forgotten, so that a new session gets a new key): as Django's own store does."""
        model = self.model
        with connection.cursor() as cursor:
            cursor.execute(
                _session_lookup(model, connection.vendor),
                [self.session_key, adapted_moment(timezone.now())],
            )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        return row_instance(model, connection, row)


@cache
def _session_lookup(model, vendor: str) -> str:
    key, expires = column(model, "session_key"), column(model, "expire_date")
    return (
        f"SELECT {column_list(model)} FROM {table_name(model)} WHERE {key} = %s AND {expires} > %s"
    )
