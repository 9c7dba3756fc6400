"""Events tests run against both databases: a SQLite file, and a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import new_app
from events.pg import PostgresServer


@pytest.fixture(scope="session")
def postgres():
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture
def both_client(events_database, tmp_path):
    """A test client of a fresh app on each events database in turn."""
    app = new_app(tmp_path, EVENTS_DATABASE=events_database)
    yield app.test_client()
    if "deckcheck.events" in app.extensions:  # a test refused before the store opened
        app.extensions["deckcheck.events"].close()


@pytest.fixture(params=["sqlite", "postgresql"])
def events_database(request, tmp_path) -> Iterator[str]:
    """A fresh events database setting (what DECKCHECK_EVENTS_DATABASE would hold)."""
    if request.param == "sqlite":
        yield str(tmp_path / "events.db")
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.fresh_database()
    yield url
    postgres.drop_later(url)
