"""Django's PostgreSQL backend, with the pool's check of a connection made cheap.

Django gives the pool psycopg's own check (an empty query each time a connection is handed
out) when ``CONN_HEALTH_CHECKS`` is on, and takes no other: this backend swaps in
``connection_alive`` as the pool is made. Everything else is Django's.
"""

from django.db.backends.postgresql import base

from coins_site.postgresql.pool_check import connection_alive


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # psycopg_pool keeps the check it was given in ``_check`` and reads it each time.
        if pool is not None and pool._check is not None and pool._check is not connection_alive:
            pool._check = connection_alive
        return pool
