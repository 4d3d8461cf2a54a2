"""PostgreSQL: ``coins_others_present(game, channel)``, whether a socket besides
``channel`` has a presence row at the table, read with a snapshot of its own.

A move made without a separate locking read (``games/table/unlocked.py``) is one statement,
and every part of a statement sees the snapshot taken when it began, before it held the game
row's lock. A socket whose presence row committed in between would go unseen, and its first
board (read before the move) would wait for a page's sync. A VOLATILE function takes a
fresh snapshot for each query it runs, so called in the statement's ``RETURNING`` (the row
lock held) it sees every row committed before the lock, as the locked path's second
statement does.
"""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION coins_others_present(game integer, channel text)
RETURNS boolean LANGUAGE sql VOLATILE AS $$
    SELECT EXISTS (
        SELECT 1 FROM games_presence AS p WHERE p.game_id = $1 AND p.channel <> $2
    )
$$
"""
DROP = "DROP FUNCTION IF EXISTS coins_others_present(integer, text)"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_redundant_fk_indexes_dropped"),
    ]

    operations = [migrations.RunPython(create, drop)]
