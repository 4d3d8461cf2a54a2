"""Django's ``ModelBackend``, with the logged-in person read together with their profile.

Every page, every socket's opening and every form post starts by reading the person behind
the session, and nearly all of them then read the profile (their language, their settings).
Django builds the ORM's query for the person each time (``User.objects.get(pk=...)``) and the
profile comes in a statement of its own. Here one statement, written once per vendor, reads
both, and the profile (or its absence) is cached on the person as ``select_related`` caches it
(``common.kept_rows``). Logging in, permissions and ``is_active`` are ``ModelBackend``'s own.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.db import connection

from common.kept_rows import column, table_name

from .person_rows import person_columns, person_from_row, profile_join

PERSON_BACKEND = "accounts.backends.PersonBackend"
# The backend the sessions made before ``PersonBackend`` name: still read, as that one.
EARLIER_BACKEND = "django.contrib.auth.backends.ModelBackend"
ID_LIMIT = 2**63  # ids are 64-bit


class PersonBackend(ModelBackend):
    def get_user(self, user_id):
        """The active person with this id (their profile cached on them), else None."""
        person = person_with_profile(user_id)
        return person if person is not None and self.user_can_authenticate(person) else None


def person_with_profile(user_id):
    """The person with this id and their profile (None cached when they have none), in one
    statement; None if there is no such person, or the id is not one."""
    user_model = get_user_model()
    key = user_model._meta.pk
    try:
        value = key.get_db_prep_value(key.to_python(user_id), connection)
    except (ValidationError, TypeError, ValueError):
        return None
    if isinstance(value, int) and not -ID_LIMIT <= value < ID_LIMIT:
        return None  # past any id: no such person (SQLite would refuse the number)
    with connection.cursor() as cursor:
        cursor.execute(_person_lookup(user_model, connection.vendor), [value])
        row = cursor.fetchone()
    return None if row is None else person_from_row(row)


@cache
def _person_lookup(user_model, vendor: str) -> str:
    return (
        f"SELECT {person_columns()} FROM {table_name(user_model)} u{profile_join()}"
        f" WHERE u.{column(user_model, 'pk')} = %s"
    )
