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
from django.db.models import AutoField
from django.db.models.constants import OnConflict


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


def adapted_moment(moment):
    """A datetime as the ORM hands it to the database for a datetime column (SQLite: text)."""
    return connection.ops.adapt_datetimefield_value(moment)


def row_exists(model, **equal) -> bool:
    """Whether a row of ``model`` has these field values (plain values: ``game_id=7``, not a
    row), as ``filter(...).exists()`` says: each made ready as the ORM makes it."""
    names = tuple(equal)
    meta = model._meta
    nulls = tuple(equal[name] is None for name in names)  # None: IS NULL, as the ORM says
    values = [
        (meta.pk if name == "pk" else meta.get_field(name)).get_db_prep_value(value, connection)
        for name, value in equal.items()
        if value is not None
    ]
    with connection.cursor() as cursor:
        cursor.execute(_exists_statement(model, names, nulls, connection.vendor), values)
        return cursor.fetchone() is not None


@cache
def _exists_statement(model, names: tuple[str, ...], nulls: tuple, vendor: str) -> str:
    where = " AND ".join(
        f"{column(model, name)} {'IS NULL' if null else '= %s'}"
        for name, null in zip(names, nulls, strict=True)
    )
    return f"SELECT 1 FROM {table_name(model)} WHERE {where} LIMIT 1"


def row_insert_ignoring(instance) -> None:
    """Insert ``instance`` as ``bulk_create([instance], ignore_conflicts=True)`` does (each
    value as the ORM prepares it, defaults and ``auto_now_add`` included; a row that breaks
    a unique constraint is left out), in a statement written once per model and vendor."""
    rows_insert_ignoring([instance])


def rows_insert_ignoring(instances: list) -> None:
    """``row_insert_ignoring`` for several rows of one model, in one statement."""
    if not instances:
        return
    model = type(instances[0])
    values = _insert_values(model, instances)
    with connection.cursor() as cursor:
        statement = _insert_ignoring_statement(model, connection.vendor, len(instances))
        cursor.execute(statement, values)


def rows_insert(instances: list) -> None:
    """Insert new rows of one model as ``bulk_create`` does (each value as the ORM prepares
    it, defaults and ``auto_now`` included), in a statement written once per model, vendor
    and count, and give each instance its new id."""
    if not instances:
        return
    model = type(instances[0])
    if not connection.features.can_return_rows_from_bulk_insert:
        model._default_manager.bulk_create(instances)
        return
    values = _insert_values(model, instances)
    with connection.cursor() as cursor:
        cursor.execute(_insert_statement(model, connection.vendor, len(instances)), values)
        ids = sorted(row[0] for row in cursor.fetchall())  # a sequence: in the rows' order
    for instance, pk in zip(instances, ids, strict=True):
        instance.pk = pk
        instance._state.adding, instance._state.db = False, connection.alias


def _insert_values(model, instances: list) -> list:
    """Every insert field's value of each instance, made ready as the ORM makes it."""
    fields = insert_fields(model)
    return [
        f.get_db_prep_save(f.pre_save(instance, True), connection)
        for instance in instances
        for f in fields
    ]


@cache
def _insert_statement(model, vendor: str, count: int) -> str:
    fields = insert_fields(model)
    names = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    return (
        f"INSERT INTO {table_name(model)} ({names}) VALUES {', '.join([row] * count)}"
        f" RETURNING {column(model, 'pk')}"
    )


@cache
def insert_fields(model) -> tuple:
    """The columns an insert names, as ``bulk_create`` names them for a new row: all but
    an automatic key and generated columns."""
    return tuple(
        f
        for f in model._meta.concrete_fields
        if not isinstance(f, AutoField) and not getattr(f, "generated", False)
    )


@cache
def _insert_ignoring_statement(model, vendor: str, count: int = 1) -> str:
    fields = insert_fields(model)
    ops = connection.ops
    names = ", ".join(ops.quote_name(f.column) for f in fields)
    marks = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * count)
    suffix = ops.on_conflict_suffix_sql(fields, OnConflict.IGNORE, None, None)
    insert = ops.insert_statement(on_conflict=OnConflict.IGNORE)
    return f"{insert} {table_name(model)} ({names}) VALUES {marks} {suffix}".rstrip()
