"""The marks of a test module that runs a table runner on its event loop beside the
database (kept apart from ``helpers``, which the browser tests import without asyncio)."""

import pytest
from django.db import connection

RUNNER_TEST_MARKS = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="SQLite serves every call on one thread"
    ),
]
