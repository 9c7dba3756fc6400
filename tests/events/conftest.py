"""Events tests run against both databases: a SQLite file, and a real PostgreSQL."""

from __future__ import annotations

import itertools

import pytest
from events.pg import PostgresServer

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres():
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def events_database(request, tmp_path) -> str:
    """A fresh events database setting (what DECKCHECK_EVENTS_DATABASE would hold)."""
    if request.param == "sqlite":
        return str(tmp_path / "events.db")
    return request.getfixturevalue("postgres").database(f"events_{next(_names)}")
