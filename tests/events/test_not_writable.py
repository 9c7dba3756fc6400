"""A database that does not take writes for a moment (issue 40's attack run): the worker
recovers by itself once it does, health says so meanwhile, the log names the cause.

As root, chmod does not stop SQLite from writing; as the issue suggests, the file is
opened read-only for a moment instead (`mode=ro`, what SQLite does by itself with a file
it may not write). PostgreSQL: the database's default_transaction_read_only, what a
session on a standby sees. In both, the worker "restarts" meanwhile (its pool emptied),
so every connection it holds was opened while the database could not be written.
"""

from __future__ import annotations

import logging
import sqlite3
import time

import pytest
from conftest import new_app
from sqlalchemy import create_engine, event, text

from deckcheck.events.core import store
from deckcheck.server import writable
from deckcheck.server.writable import cannot_write

EVENT = {"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"}


class ReadOnlyForAMoment:
    """Switches the database to read-only and back, for connections opened meanwhile."""

    def __init__(self, engine, setting: str) -> None:
        self.engine, self.setting, self.on = engine, setting, False
        if engine.dialect.name == "sqlite":
            event.listen(engine, "do_connect", self._read_only_file)

    def _read_only_file(self, dialect, record, cargs, cparams):
        if not self.on:
            return None
        path = self.engine.url.database
        return sqlite3.connect(f"file:{path}?mode=ro", **cparams | {"uri": True})

    def _postgres(self, value: str) -> None:
        name = self.engine.url.database
        admin = create_engine(self.engine.url.set(database="postgres"))
        with admin.begin() as conn:
            conn.execute(text(f"ALTER DATABASE {name} SET default_transaction_read_only = {value}"))
        admin.dispose()

    def __call__(self, on: bool) -> None:
        self.on = on
        if self.engine.dialect.name != "sqlite":
            self._postgres("on" if on else "off")
        if on:
            self.engine.dispose()  # the worker restarts: every connection opened anew


@pytest.fixture
def app(events_database, tmp_path, cards_db):
    app = new_app(tmp_path, EVENTS_DATABASE=events_database)
    yield app
    if "deckcheck.events" in app.extensions:
        app.extensions["deckcheck.events"].close()


def test_a_worker_recovers_once_the_database_is_writable_again(app, caplog, monkeypatch):
    monkeypatch.setattr(writable, "PROBE_EVERY", 0.0)  # health probes at every request
    client = app.test_client()
    assert client.post("/api/v1/events", json=EVENT).status_code == 201
    with app.app_context():
        events = store()
    read_only = ReadOnlyForAMoment(events.engine, app.config["EVENTS_DATABASE"])
    assert client.get("/api/v1/health").status_code == 200

    read_only(True)
    with caplog.at_level(logging.WARNING):
        refused = [client.post("/api/v1/events", json=EVENT) for _ in range(3)]
    assert [r.status_code for r in refused] == [503, 503, 503]
    assert refused[0].get_json()["error"]["code"] == "events-busy"
    logged = caplog.text
    assert "OperationalError" not in logged.replace("sqlalchemy.exc.OperationalError", "")
    assert "read-only" in logged or "readonly" in logged, logged
    health = client.get("/api/v1/health")
    assert health.status_code == 503
    assert health.get_json()["error"]["code"] == "database-not-writable"

    read_only(False)  # no restart: the next save is taken
    created = client.post("/api/v1/events", json=EVENT)
    assert created.status_code == 201
    assert client.get("/api/v1/health").status_code == 200
    assert client.get("/api/v1/events/" + created.get_json()["id"]).status_code == 200


def test_health_turns_back_by_itself_without_a_save(app):
    client = app.test_client()
    assert client.post("/api/v1/events", json=EVENT).status_code == 201
    with app.app_context():
        events = store()
    read_only = ReadOnlyForAMoment(events.engine, app.config["EVENTS_DATABASE"])
    read_only(True)
    assert client.post("/api/v1/events", json=EVENT).status_code == 503
    assert client.get("/api/v1/health").status_code == 503  # known from the refused save
    read_only(False)
    time.sleep(1.1)
    assert client.get("/api/v1/health").status_code == 200


def test_what_counts_as_cannot_write():
    readonly = sqlite3.OperationalError("attempt to write a readonly database")
    readonly.sqlite_errorcode = 8
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = 5
    io = sqlite3.OperationalError("disk I/O error")
    io.sqlite_errorcode = 10 | (3 << 8)  # SQLITE_IOERR_WRITE
    assert cannot_write(readonly) and cannot_write(io) and not cannot_write(busy)
    assert not cannot_write(ValueError("x")) and not cannot_write(None)
