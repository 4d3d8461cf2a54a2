"""Inserting many rows at once: the seeder of the benchmarks and the ratings' recompute."""

import json
from datetime import datetime

from django.db import connection


def rows_insert(model, rows: list, *, with_pk: bool = True) -> None:
    """Insert model instances as fast as the database allows: ``COPY`` on PostgreSQL,
    ``bulk_create`` elsewhere. ``with_pk=False`` leaves the ids to the database."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create(rows, batch_size=500)
        return
    fields = [f for f in model._meta.concrete_fields if with_pk or not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    json_fields = {f.attname for f in fields if f.get_internal_type() == "JSONField"}
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(
                    [
                        json.dumps(getattr(row, f.attname))
                        if f.attname in json_fields
                        else getattr(row, f.attname)
                        for f in fields
                    ]
                )


def tuples_insert(model, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """Insert plain tuples (JSON already as text) into ``model``'s table, in ``columns``:
    thousands of rows a batch cost no model instances."""
    if not rows:
        return
    table = connection.ops.quote_name(model._meta.db_table)
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        adapt = connection.ops.adapt_datetimefield_value
        rows = [tuple(adapt(v) if isinstance(v, datetime) else v for v in row) for row in rows]
        marks = ", ".join(["%s"] * len(columns))
        cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


def rows_update(model, rows: list, fields: tuple[str, ...]) -> None:
    """Write ``fields`` of model instances that exist: one ``UPDATE ... FROM unnest(...)``
    on PostgreSQL (``bulk_update`` builds a ``CASE`` per row and field, and for 20,000 rows
    that cost more than the work that changed them), ``bulk_update`` elsewhere."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_update(rows, list(fields), batch_size=500)
        return
    meta = model._meta
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    quote = connection.ops.quote_name
    arrays = ", ".join(f"%s::{column.db_type(connection)}[]" for column in columns)
    names = ", ".join(quote(column.column) for column in columns)
    assignments = ", ".join(f"{quote(c.column)} = v.{quote(c.column)}" for c in columns[1:])
    pk = quote(meta.pk.column)
    values = [
        [column.get_db_prep_save(getattr(row, column.attname), connection) for row in rows]
        for column in columns
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(meta.db_table)} AS r SET {assignments}"
            f" FROM unnest({arrays}) AS v({names}) WHERE r.{pk} = v.{pk}",
            values,
        )
