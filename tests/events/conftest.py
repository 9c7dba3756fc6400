"""Events tests run against both databases: a SQLite file, and a real PostgreSQL."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from conftest import migrated, new_app
from events.pg import PostgresServer

TEMPLATE = "events_template"


@pytest.fixture(scope="session")
def postgres(tmp_path_factory, starter_db):
    """One PostgreSQL per worker; `fresh_database()` copies a database the migrations
    ran on once (an empty one: `postgres.database(name)`, `empty_events_database`)."""
    server = PostgresServer()
    try:
        url = server.database(TEMPLATE)
        migrated(tmp_path_factory.mktemp("pg-template"), starter_db, url)
        # A template is copied only while nobody is connected to it.
        server.sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{TEMPLATE}' AND pid <> pg_backend_pid()"
        )
        server.template = TEMPLATE
        yield server
    finally:
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
    """A fresh events database setting (what DECKCHECK_EVENTS_DATABASE would hold), at
    the newest schema: a copy of one the migrations made (tests/conftest.py)."""
    if request.param == "sqlite":
        path = tmp_path / "events.db"
        shutil.copyfile(request.getfixturevalue("events_template"), path)
        yield str(path)
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.fresh_database()
    yield url
    postgres.drop_later(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_events_database(request, tmp_path) -> Iterator[str]:
    """An empty events database, for the tests that run the migrations themselves."""
    if request.param == "sqlite":
        yield str(tmp_path / "events.db")
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.database(f"empty_{tmp_path.name}".lower().replace("-", "_")[:60])
    yield url
    postgres.drop_later(url)
