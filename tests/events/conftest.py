"""Events tests run against both databases: a SQLite file, and a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from events.pg import PostgresServer


@pytest.fixture(scope="session")
def postgres():
    server = PostgresServer()
    yield server
    server.stop()


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
