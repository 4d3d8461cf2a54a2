"""Shared fixtures for the whole suite."""

import pytest


@pytest.fixture(autouse=True)
def no_runner_of_its_own(settings):
    """Tests serve tables' schedules themselves (``serve_due``, or the ``table_runner``
    fixture), so no runner starts with the first connection."""
    settings.COINS_TABLE_RUNNER = False


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete():
    """A transactional test ends by emptying every table. On PostgreSQL Django does it with
    one TRUNCATE, which gives each of the tables new files: 0.1 s idle and 0.35 s on a busy
    machine, for the few rows a test wrote. DELETE empties them in about 10 ms. (The flush
    runs in one transaction and Django's foreign keys are checked at commit, so the order
    of the tables does not matter.)

    A browser test's Daphnes outlive the test, and their table runners may still be writing
    (a bot's card, a notice) while the tables are emptied. A row written between two of the
    DELETEs would fail the flush's foreign-key check at commit, and the next test would meet
    the last one's people. So the flush first locks every table against the servers (their
    transactions finish, later ones wait for the flush), and a flush that still lost a
    deadlock to them is run again."""
    from django.db import DatabaseError
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate, execute = DatabaseOperations.sql_flush, DatabaseOperations.execute_sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        names = ", ".join(self.quote_name(table) for table in sorted(tables))
        return [f"LOCK TABLE {names} IN ACCESS EXCLUSIVE MODE;"] + [
            f"DELETE FROM {self.quote_name(table)};" for table in tables
        ]

    def execute_sql_flush(self, sql_list):
        for attempt in range(5):
            try:
                return execute(self, sql_list)
            except DatabaseError:
                if attempt == 4:
                    raise

    DatabaseOperations.sql_flush = sql_flush
    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    DatabaseOperations.sql_flush, DatabaseOperations.execute_sql_flush = truncate, execute


@pytest.fixture(scope="session", autouse=True)
def no_connection_left_at_the_end(django_db_setup, django_db_blocker):
    """Before the test database is dropped: close this process's pool, then name any
    connection still open on the database (a thread that kept one: a leak to mend) and end
    it. Django's drop otherwise fails with "is being accessed by other users", and says only
    that; this says which session it was, by its last statement."""
    yield
    import warnings

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock():
        connection.close()
        connection.close_pool()
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT pid, state, left(query, 160), pg_terminate_backend(pid)"
                " FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                [connection.settings_dict["NAME"]],
            )
            left = cursor.fetchall()
    for pid, state, query, _ended in left:
        message = f"A connection was left open on the test database: {pid} {state} {query}"
        warnings.warn(message, stacklevel=1)


@pytest.fixture(autouse=True)
def new_db_threads_for_each_test():
    """Each test's event loop gets threads of its own (as the loop's default pool would be):
    a thread kept from an earlier test may hold what that test did to its connection."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from games.realtime.db_threads import close_lanes
    from games.realtime.loop_db import close_loop_connections

    close_lanes()
    close_loop_connections()
    # asgiref's one thread for thread-sensitive calls (Django's own middleware and views
    # under ASGI) lives on; it hands its connection back too, or the pool keeps it open
    if SyncToAsync.single_thread_executor._threads:
        SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=30)


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A request in another language leaves that language active in the thread: put English
    back, so a later test on this worker does not read another language's messages."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def counters_forgotten_after_each_test():
    """Empty this process's in-memory caches after each test. Limits count per account and
    token id there, and SQLite hands a rolled-back test's ids out again (PostgreSQL's
    sequences never do): a later test's new account would start with an earlier one's
    count. Only memory caches: clearing a Redis cache would flush the whole database."""
    yield
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for cache in caches.all(initialized_only=True):
        if isinstance(cache, LocMemCache):
            cache.clear()


@pytest.fixture(autouse=True)
def no_bot_pause(settings):
    """Bots answer at once (the pause's own tests set it back)."""
    settings.COINS_BOT_PAUSE = 0
    # boards read right after a game show it (their own tests set the delay back)
    settings.COINS_STANDINGS_STALE = 0


@pytest.fixture
def fresh_pools():
    """The thinking lanes' worker pools started afresh for the test, and stopped after it."""
    from games.table import thinking

    thinking.shutdown_pools()
    yield
    thinking.shutdown_pools()


@pytest.fixture
def make_user(django_user_model):
    """A person with a password (and an e-mail address, if given)."""

    def make(username: str, email: str = ""):
        return django_user_model.objects.create_user(
            username=username, email=email, password="pw-Coins-123"
        )

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")
