"""The server's database: an embedded SQLite file (the default: nothing to start) or
PostgreSQL (several machines sharing one database), one `Database` every product's
store stands on. It owns the engine and its settings; the stores only ask it.

Durability: a write returns only after its transaction committed. SQLite runs in WAL
mode with `synchronous=FULL`, so a committed transaction is on disk before the 201 is
sent and survives a killed process (NORMAL could lose the last commits on power loss,
and an organizer's "your list is in" must not be a lie).

Writers take the lock up front: `database.writer` begins BEGIN IMMEDIATE on SQLite, and
the stores lock the row a rule is about (FOR UPDATE on PostgreSQL), so two requests can
never both pass a check that only one of them should.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine

from deckcheck.server import buckets
from deckcheck.server.migrate import upgrade
from deckcheck.server.writable import WriteHealth

# How long a statement may wait for a lock (SQLite's busy timeout; PostgreSQL's lock and
# statement timeouts): a request is answered within 2 s (contract, "Limits"), so one that
# cannot get the database in time is a 503 to send again (http.busy_response), not a
# request that hangs. Migrations wait as long as they need (migrate.py).
WAIT_MS = 1500


def database_url(setting: str) -> str:
    """`DECKCHECK_EVENTS_DATABASE`: a file path (SQLite) or a postgresql:// URL."""
    if setting.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + setting.split("://", 1)[1]
    if "://" in setting:
        return setting
    return "sqlite:///" + str(Path(setting).resolve())


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record) -> None:
        # Transactions are begun by hand below (pysqlite's own BEGIN is deferred
        # and hides when the write lock is taken).
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={WAIT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # Writers take the lock up front: a deferred transaction that upgrades to a
        # writer mid-way fails with SQLITE_BUSY instead of waiting its turn.
        immediate = conn.get_execution_options().get("write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _postgres_engine(url: str) -> Engine:
    return create_engine(
        url,
        pool_pre_ping=True,
        # A connection the pool hands out must not wait minutes on a dead peer: TCP
        # keep-alive finds a vanished server, the timeouts a lock nobody will free.
        connect_args={
            "connect_timeout": 5,
            # Which process a session belongs to (pg_stat_activity), for operators and
            # for the test that kills a worker.
            "application_name": f"deckcheck-{os.getpid()}",
            "options": f"-c statement_timeout={WAIT_MS}"
            f" -c lock_timeout={WAIT_MS}"
            " -c idle_in_transaction_session_timeout=5000",
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 1,
            "keepalives_count": 3,
        },
    )


class Database:
    """One database of the server: `engine` to read, `writer` to write (the lock taken
    up front), `writes` to say whether it takes writes now."""

    def __init__(self, setting: str) -> None:
        self.url = database_url(setting)
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(self.url, connect_args={"timeout": WAIT_MS / 1000})
            _sqlite_pragmas(self.engine)
        else:
            self.engine = _postgres_engine(self.url)
        self.writer = self.engine.execution_options(write=True)
        self.writes = WriteHealth(self.engine)  # a connection that cannot write is replaced

    def migrate(self) -> None:
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def take(self, key: str, count: int, seconds: float, now: float) -> bool:
        """One request against one token bucket of `count` per `seconds`."""
        bucket = buckets.Bucket(key, count, seconds, "", "")
        return buckets.take_all(self, [bucket], now) is None

    def take_all(self, wanted: Sequence[buckets.Bucket], now: float):
        """The bucket of `wanted` that refused (nothing taken from any), or None."""
        return buckets.take_all(self, wanted, now)

    def backup(self, target: str) -> None:
        """A consistent copy of a SQLite database while it serves (the online backup API)."""
        if not self.sqlite:
            raise ValueError("backup copies a SQLite store; for PostgreSQL use pg_dump")
        source = sqlite3.connect(self.url.removeprefix("sqlite:///"))
        destination = sqlite3.connect(target)
        try:
            with destination:
                source.backup(destination)
        finally:
            destination.close()
            source.close()
