"""A live Daphne server and a headless Debian Chromium for the browser tests.

These tests run in their own pytest process (`-m browser`): Playwright's sync API leaves an
event loop running, which pytest-asyncio cannot share.
"""

import os
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import pytest
from channels.layers import channel_layers
from channels.testing.live import make_application
from daphne.testing import DaphneProcess
from django.db import connections

from tests.redis_server import private_redis  # noqa: F401 (a fixture: Redis to restart)

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """A forked server cannot share an in-memory SQLite database: use a file (one per
    pytest-xdist worker, as PostgreSQL's test databases are)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        ARTIFACTS.mkdir(exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        database.setdefault("TEST", {})["NAME"] = str(ARTIFACTS / f"browser-{worker}.sqlite3")


def close_connections() -> None:
    """Close this process's connections and pools before forking a server: a child that
    inherited them would share their sockets with us (and with its sibling servers).

    The same for the channel layer: one made here (a test that told a table's sockets of a
    change) and copied into two servers would give both one Redis client prefix, and each
    would take, and drop, messages meant for the other's sockets."""
    for connection in connections.all():
        connection.close()
        if hasattr(connection, "close_pool"):
            connection.close_pool()
    channel_layers.backends.clear()
    no_worker_threads_to_copy()


def no_worker_threads_to_copy() -> None:
    """Stop this process's database threads before forking a server. Threads do not survive
    a fork, but their pools do: a child that inherited a pool with a thread would hand it
    work that never runs (on SQLite, asgiref's one thread-sensitive thread, used by a test
    that ran earlier in this process, hung the forked server's every database call)."""
    from asgiref.sync import SyncToAsync

    from games.realtime.db_threads import close_lanes

    close_lanes()
    SyncToAsync.single_thread_executor.shutdown(wait=True)
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)


def start_server() -> DaphneProcess:
    """A Daphne in a child process, running the site and its table runner as in production."""
    from django.conf import settings

    close_connections()
    runner, settings.COINS_TABLE_RUNNER = settings.COINS_TABLE_RUNNER, True  # in the child
    try:
        # No setup: the child inherits settings that already name the test database
        # (Channels' ``set_database_connection`` would prefix "test_" a second time).
        server = DaphneProcess("127.0.0.1", partial(make_application, static_wrapper=None))
        server.start()
    finally:
        settings.COINS_TABLE_RUNNER = runner  # the test process serves nothing
    if not server.ready.wait(timeout=30):
        server.terminate()
        raise RuntimeError("The test server did not start.")
    return server


def stop(servers: list[DaphneProcess]) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        server.join()


def url_of(server: DaphneProcess) -> str:
    return f"http://127.0.0.1:{server.port.value}"


def fast_tables(settings, bot_pause: float = 0.05) -> None:
    """Bots answer at once and a finished trick is cleared at once (the site waits 0.8 s and
    1.5 s): a test follows the cards, not the pauses. Set before a server forks, it holds
    there; set here too, it holds for the tables a test sets up itself. (A module that is
    about pages, not the runner, may set ``BOT_PAUSE = 0``: the bots then answer in the
    update of the person's card.)"""
    settings.COINS_BOT_PAUSE = bot_pause
    settings.COINS_TRICK_PAUSE = 0
    settings.COINS_RUNNER_POLL = 0.02  # a bot's card 0.02 s after its pause, not 0.1 s


@pytest.fixture(scope="module")
def module_servers(request, django_db_setup):
    """The Daphnes a test module shares (started on first use, stopped after its last test):
    each test still gets an empty database, and the servers keep nothing of a table in
    memory that a later test could meet (game ids are never reused)."""
    from django.conf import settings

    saved = settings.COINS_BOT_PAUSE, settings.COINS_TRICK_PAUSE, settings.COINS_RUNNER_POLL
    fast_tables(settings, getattr(request.module, "BOT_PAUSE", 0.05))
    servers: list[DaphneProcess] = []

    def urls(count: int) -> list[str]:
        while len(servers) < count:
            servers.append(start_server())
        return [url_of(server) for server in servers[:count]]

    yield urls
    stop(servers)
    settings.COINS_BOT_PAUSE, settings.COINS_TRICK_PAUSE, settings.COINS_RUNNER_POLL = saved


@pytest.fixture
def live_server_url(transactional_db, module_servers):
    return module_servers(1)[0]


@pytest.fixture
def two_server_urls(transactional_db, module_servers, settings):
    """Two Daphne processes sharing the database and the Redis channel layer, as in
    production: people on different processes must see each other's moves. Without Redis
    (the in-memory layer is per process) both URLs are one server's."""
    if "Redis" in settings.CHANNEL_LAYERS["default"]["BACKEND"]:
        return module_servers(2)
    return module_servers(1) * 2


@pytest.fixture
def live_servers(transactional_db, settings):
    """Start Daphnes of this test's own on demand (``start()``), each with its table runner,
    for the tests that kill them; all are stopped (or were killed) when the test ends."""
    fast_tables(settings)
    servers: list[DaphneProcess] = []

    def start() -> DaphneProcess:
        server = start_server()
        server.url = url_of(server)
        servers.append(server)
        return server

    yield start
    stop([server for server in servers if server.is_alive()])


@pytest.fixture
def new_page(browser):
    """Open pages in browser contexts of their own: separate people, separate cookies."""
    contexts = []

    def open_page():
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running, so Django would refuse ORM calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(new_page):
    return new_page()
