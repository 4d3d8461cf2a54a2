"""Trigram indexes for admin searches (``common.admin_search``), PostgreSQL only.

Migrations call ``trigram_indexes``: the index is on ``UPPER(col::text)``, the expression
Django's ``icontains`` and ``istartswith`` compare, so both lookups use it. SQLite skips them.
"""

from django.db import migrations


def trigram_indexes(*indexes: tuple[str, str, str]) -> list:
    """Operations creating (and on reverse dropping) ``(name, table, column)`` indexes."""

    def create(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for name, table, column in indexes:
            schema_editor.execute(
                f'CREATE INDEX IF NOT EXISTS {name} ON "{table}" '
                f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
            )

    def drop(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for name, _table, _column in indexes:
            schema_editor.execute(f"DROP INDEX IF EXISTS {name}")

    return [migrations.RunPython(create, drop, elidable=False)]
