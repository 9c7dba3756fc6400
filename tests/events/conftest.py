"""Events tests run against both databases: a SQLite file, and a real PostgreSQL (the
`events_database` and `postgres` fixtures are in tests/conftest.py: one server a worker)."""

from __future__ import annotations

import pytest
from conftest import new_app


@pytest.fixture
def both_client(events_database, tmp_path):
    """A test client of a fresh app on each events database in turn."""
    app = new_app(tmp_path, EVENTS_DATABASE=events_database)
    yield app.test_client()
    if "deckcheck.events" in app.extensions:  # a test refused before the store opened
        app.extensions["deckcheck.events"].close()
