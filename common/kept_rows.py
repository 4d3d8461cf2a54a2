"""Model rows read on a hot path by a statement written once, built as the ORM builds them.

For the small reads every table makes, building the query through the ORM (its filters,
joins and compiled SQL) costs more CPU than the database's answer: a game's seats with
their people and profiles took 1.8 ms of Python for a statement PostgreSQL answers in a
tenth of that. Here the statement is written once per database vendor, and each row is
turned into instances with the converters the ORM would apply to its columns (SQLite's
datetimes come back as text, JSON as text everywhere), through ``Model.from_db``, and with
the related instances cached as ``select_related`` caches them.
"""

from __future__ import annotations

from functools import cache

from django.db import connection


def table_name(model) -> str:
    """The model's table, quoted."""
    return connection.ops.quote_name(model._meta.db_table)


def column(model, name: str) -> str:
    """The column of the model's field ``name`` ("pk" for its key), quoted."""
    field = model._meta.pk if name == "pk" else model._meta.get_field(name)
    return connection.ops.quote_name(field.column)


def column_list(model, alias: str = "") -> str:
    """The model's concrete columns, quoted (``alias.`` before each when given)."""
    quote = connection.ops.quote_name
    prefix = f"{alias}." if alias else ""
    return ", ".join(f"{prefix}{quote(field.column)}" for field in model._meta.concrete_fields)


@cache
def _converters(model, vendor: str) -> tuple[tuple, ...]:
    """What the ORM applies to each concrete column of ``model`` read back, in order, with
    the column expression it passes them (found once per vendor: ``vendor`` keys the cache)."""
    table = model._meta.db_table
    converters = []
    for field in model._meta.concrete_fields:
        column = field.get_col(table)
        found = (*connection.ops.get_db_converters(column), *field.get_db_converters(connection))
        converters.append((column, found))
    return tuple(converters)


@cache
def _attnames(model) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]


def width(model) -> int:
    """How many columns ``column_list(model)`` reads."""
    return len(model._meta.concrete_fields)


def row_instance(model, db, values):
    """An instance of ``model`` from its columns' raw values, as the ORM would build it."""
    converted = []
    for (column, converters), value in zip(_converters(model, db.vendor), values, strict=True):
        for convert in converters:
            value = convert(value, column, db)
        converted.append(value)
    return model.from_db(db.alias, _attnames(model), converted)


def field_value(model, name: str, db, value):
    """One column of ``model`` read back raw (by ``name``), converted as the ORM would."""
    index = _attnames(model).index(model._meta.get_field(name).attname)
    column, converters = _converters(model, db.vendor)[index]
    for convert in converters:
        value = convert(value, column, db)
    return value
