"""A live Daphne server and a headless Debian Chromium for the browser tests.

These tests run in their own pytest process (`-m browser`): Playwright's sync API leaves an
event loop running, which pytest-asyncio cannot share.
"""

import os
from functools import partial
from pathlib import Path

import pytest
from channels.testing.live import make_application, set_database_connection
from daphne.testing import DaphneProcess
from django.db import connections

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def django_db_modify_db_settings():
    """A forked server cannot share an in-memory SQLite database: use a file."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        ARTIFACTS.mkdir(exist_ok=True)
        database.setdefault("TEST", {})["NAME"] = str(ARTIFACTS / "browser-tests.sqlite3")


@pytest.fixture
def live_server_url(transactional_db, settings):
    settings.COINS_BOT_PAUSE = 0.05
    connections.close_all()  # the forked server must not inherit open connections
    server = DaphneProcess(
        "127.0.0.1", partial(make_application, static_wrapper=None), setup=set_database_connection
    )
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        raise RuntimeError("The test server did not start.")
    yield f"http://127.0.0.1:{server.port.value}"
    server.terminate()
    server.join()


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
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
