"""A person with their profile, read in the same statement as what they belong to (a seat, a
chat message, a session's person): the columns to select, the joins, and the row turned into
the person with the profile cached on them as ``select_related("user__profile")`` caches it
(a person may have no profile yet: then None is cached, and reading it makes no statement).
For statements written once (``common.kept_rows``)."""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from common.kept_rows import column, column_list, row_instance, table_name, width

from .models import Profile


def person_columns(user_alias: str = "u", profile_alias: str = "p") -> str:
    """The person's columns, then their profile's."""
    return f"{column_list(get_user_model(), user_alias)}, {column_list(Profile, profile_alias)}"


def person_joins(person_key: str, user_alias: str = "u", profile_alias: str = "p") -> str:
    """LEFT JOINs of the person whose key is the column ``person_key`` (``s."user_id"``, say)
    and their profile."""
    user_model = get_user_model()
    return (
        f" LEFT JOIN {table_name(user_model)} {user_alias}"
        f" ON {user_alias}.{column(user_model, 'pk')} = {person_key}"
    ) + profile_join(user_alias, profile_alias)


def profile_join(user_alias: str = "u", profile_alias: str = "p") -> str:
    """The LEFT JOIN of the profile of the person ``user_alias``."""
    user_key = column(get_user_model(), "pk")
    return (
        f" LEFT JOIN {table_name(Profile)} {profile_alias}"
        f" ON {profile_alias}.{column(Profile, 'user')} = {user_alias}.{user_key}"
    )


def row_with_person(model, relation: str, values):
    """An instance of ``model`` from its columns followed by ``person_columns``' (its
    ``relation`` to the person cached, as ``select_related`` caches it)."""
    end = width(model)
    instance = row_instance(model, connection, values[:end])
    getattr(model, relation).field.set_cached_value(instance, person_from_row(values[end:]))
    return instance


def person_from_row(values):
    """The person of ``person_columns``' values (their profile cached on them), or None when
    the join found nobody."""
    user_model = get_user_model()
    user_end = width(user_model)
    if values[_user_key_index()] is None:
        return None
    person = row_instance(user_model, connection, values[:user_end])
    profile = None
    if values[user_end + _profile_key_index()] is not None:  # no profile yet
        profile = row_instance(Profile, connection, values[user_end:])
        Profile.user.field.set_cached_value(profile, person)
    user_model.profile.related.set_cached_value(person, profile)
    return person


@cache
def _user_key_index() -> int:
    meta = get_user_model()._meta
    return meta.concrete_fields.index(meta.pk)


@cache
def _profile_key_index() -> int:
    return Profile._meta.concrete_fields.index(Profile._meta.pk)
