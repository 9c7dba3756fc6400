"""The events database: events, submissions (every version kept) and drops.

One small interface (`EventStore`) over SQLAlchemy Core, so the same code runs on an
embedded SQLite file (the default: nothing to start) and on PostgreSQL (several
machines sharing one database). The schema is made by the Alembic migrations in
`migrations/`; the tables below mirror it for queries.

Durability: a write returns only after its transaction committed. SQLite runs in WAL
mode with `synchronous=FULL`, so a committed transaction is on disk before the 201 is
sent and survives a killed process (NORMAL could lose the last commits on power loss,
and an organizer's "your list is in" must not be a lie).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import (
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Connection, Engine

metadata = MetaData()

events = Table(
    "events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("format", String(80), nullable=False),
    Column("date", String(10), nullable=False),
    Column("deadline", String(40), nullable=False),
    Column("deadline_utc", String(40), nullable=False),
    Column("description", Text, nullable=False),
    Column("locked", Boolean, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
)

submissions = Table(
    "submissions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("event_id", String(32), nullable=False),
    Column("player_key", String(300), nullable=False),
    Column("player", String(200), nullable=False),
    Column("player_id", String(100), nullable=False),
    Column("entry", Text, nullable=False),
    Column("fingerprint", String(80), nullable=False),
    Column("legal", Boolean, nullable=False),
    Column("verdict", Text, nullable=False),
    Column("submitted_at", String(40), nullable=False),
    Column("client", String(64), nullable=False),
    Column("status", String(10), nullable=False),
    Column("seq", Integer, nullable=False),
)

drops = Table(
    "drops",
    metadata,
    Column("submission_id", String(32), primary_key=True),
    Column("event_id", String(32), nullable=False),
    Column("player", String(200), nullable=False),
    Column("dropped_at", String(40), nullable=False),
)

CURRENT, REPLACED, DROPPED = "current", "replaced", "dropped"


class EventLocked(Exception):
    """The deadline has passed or the organizer locked the event."""


@dataclass(frozen=True)
class NewSubmission:
    player: str
    player_id: str
    entry: dict  # {"decklist": text} or {"deck": {...}}
    fingerprint: str
    legal: bool
    verdict: dict  # {"violations": [...], "warnings": [...]} as the player was told
    client: str


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def player_key(player: str, player_id: str) -> str:
    """Who a submission belongs to: the id when given, else the name (any case)."""
    if player_id.strip():
        return "id:" + player_id.strip()
    return "name:" + " ".join(player.casefold().split())


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
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # Writers take the lock up front: a deferred transaction that upgrades to a
        # writer mid-way fails with SQLITE_BUSY instead of waiting its turn.
        immediate = conn.get_execution_options().get("write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


# Statements every submission runs, built once: building a select() costs more than
# SQLite takes to run it (bench/events.py). Parameters are bound per call.
_EVENT = select(events).where(events.c.id == bindparam("e_id"))
# FOR UPDATE (PostgreSQL) serialises one event's writers, as SQLite's BEGIN IMMEDIATE does.
_LOCK_EVENT = (
    select(events.c.locked, events.c.deadline_utc)
    .where(events.c.id == bindparam("e_id"))
    .with_for_update()
)
_PLAYER_LISTS = select(func.count()).where(
    submissions.c.event_id == bindparam("e_id"), submissions.c.player_key == bindparam("p_key")
)
_RETIRE_CURRENT = (
    submissions.update()
    .where(
        submissions.c.event_id == bindparam("e_id"),
        submissions.c.player_key == bindparam("p_key"),
        submissions.c.status == CURRENT,
    )
    .values(status=REPLACED)
)


def _row(row) -> dict | None:
    return dict(row._mapping) if row is not None else None


class EventStore:
    """Everything the service keeps about events. Each method is one transaction."""

    def __init__(self, setting: str) -> None:
        self.url = database_url(setting)
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(self.url, connect_args={"timeout": 30})
            _sqlite_pragmas(self.engine)
        else:
            self.engine = create_engine(self.url, pool_pre_ping=True)
        self._writer = self.engine.execution_options(write=True)

    def migrate(self) -> None:
        from deckcheck.events.migrate import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- events ---------------------------------------------------------------

    def create_event(self, fields: dict) -> tuple[dict, str]:
        """A new event and its admin token (only its hash is stored)."""
        token = secrets.token_urlsafe(24)
        row = {
            **fields,
            "id": secrets.token_urlsafe(9),
            "locked": False,
            "token_hash": token_hash(token),
            "created_at": now_utc(),
        }
        with self._writer.begin() as conn:
            conn.execute(events.insert().values(**row))
        return row, token

    def event(self, event_id: str) -> dict | None:
        with self.engine.begin() as conn:
            return _row(conn.execute(_EVENT, {"e_id": event_id}).first())

    def players(self, event_id: str) -> int:
        query = select(func.count()).where(
            submissions.c.event_id == event_id, submissions.c.status == CURRENT
        )
        with self.engine.begin() as conn:
            return conn.execute(query).scalar_one()

    @staticmethod
    def token_matches(event_row: dict, token: str) -> bool:
        return hmac.compare_digest(token_hash(token), event_row["token_hash"])

    def update_event(self, event_id: str, **values) -> dict | None:
        with self._writer.begin() as conn:
            conn.execute(events.update().where(events.c.id == event_id).values(**values))
            return _row(conn.execute(select(events).where(events.c.id == event_id)).first())

    def delete_event(self, event_id: str) -> bool:
        with self._writer.begin() as conn:
            conn.execute(drops.delete().where(drops.c.event_id == event_id))
            conn.execute(submissions.delete().where(submissions.c.event_id == event_id))
            return conn.execute(events.delete().where(events.c.id == event_id)).rowcount > 0

    # -- submissions ----------------------------------------------------------

    def submit(self, event_id: str, new: NewSubmission, when: str | None = None) -> dict:
        """Store a list; the player's earlier one becomes history. Raises EventLocked."""
        when = when or now_utc()
        key = player_key(new.player, new.player_id)
        with self._writer.begin() as conn:
            # FOR UPDATE (PostgreSQL) serialises this event's writers, as SQLite's
            # BEGIN IMMEDIATE does: a lock and a submission never interleave, and
            # one player never ends up with two current lists.
            found = conn.execute(_LOCK_EVENT, {"e_id": event_id}).first()
            if found is None:
                raise KeyError(event_id)
            if found.locked or when >= found.deadline_utc:
                raise EventLocked(event_id)
            params = {"e_id": event_id, "p_key": key}
            seq = conn.execute(_PLAYER_LISTS, params).scalar_one()
            conn.execute(_RETIRE_CURRENT, params)
            row = {
                "id": secrets.token_urlsafe(12),
                "event_id": event_id,
                "player_key": key,
                "player": new.player,
                "player_id": new.player_id,
                "entry": json.dumps(new.entry),
                "fingerprint": new.fingerprint,
                "legal": new.legal,
                "verdict": json.dumps(new.verdict),
                "submitted_at": when,
                "client": new.client,
                "status": CURRENT,
                "seq": seq + 1,
            }
            conn.execute(submissions.insert(), row)
        return row

    def current(self, event_id: str) -> list[dict]:
        """The latest list of every player who has not dropped, oldest first."""
        query = (
            select(submissions)
            .where(submissions.c.event_id == event_id, submissions.c.status == CURRENT)
            .order_by(submissions.c.submitted_at, submissions.c.id)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def submission(self, event_id: str, submission_id: str) -> dict | None:
        query = select(submissions).where(
            submissions.c.event_id == event_id, submissions.c.id == submission_id
        )
        with self.engine.begin() as conn:
            return _row(conn.execute(query).first())

    def history(self, event_id: str, key: str) -> list[dict]:
        query = (
            select(submissions)
            .where(submissions.c.event_id == event_id, submissions.c.player_key == key)
            .order_by(submissions.c.seq)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def drop(self, event_id: str, submission_id: str) -> bool:
        """Drop a player: their lists stay as history, none of them counts any more."""
        with self._writer.begin() as conn:
            found = conn.execute(
                select(submissions.c.player_key, submissions.c.player).where(
                    submissions.c.event_id == event_id,
                    submissions.c.id == submission_id,
                    submissions.c.status == CURRENT,
                )
            ).first()
            if found is None:
                return False
            conn.execute(
                submissions.update()
                .where(
                    submissions.c.event_id == event_id,
                    submissions.c.player_key == found.player_key,
                    submissions.c.status != DROPPED,
                )
                .values(status=DROPPED)
            )
            conn.execute(
                drops.insert().values(
                    submission_id=submission_id,
                    event_id=event_id,
                    player=found.player,
                    dropped_at=now_utc(),
                )
            )
        return True

    def recent_from(self, event_id: str, client: str, since: str) -> int:
        """Submissions from one address to one event since a moment (the rate limit)."""
        query = select(func.count()).where(
            submissions.c.event_id == event_id,
            submissions.c.client == client,
            submissions.c.submitted_at >= since,
        )
        with self.engine.begin() as conn:
            return conn.execute(query).scalar_one()

    # -- operations -----------------------------------------------------------

    def backup(self, target: str) -> None:
        """A consistent copy of a SQLite store while it serves (the online backup API)."""
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
