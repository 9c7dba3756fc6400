"""Token buckets: the one check-and-count statement, and taking from buckets in one
transaction (deckcheck.server.limits says how limits hold). Under the database, which
runs it, and the limits that ask it, so neither imports the other."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from sqlalchemy import Float, bindparam, case, func
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from deckcheck.server.tables.limits import rate_buckets


@cache
def take_statement(dialect: str):
    """The check-and-count UPSERT for one database's dialect."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    least = func.least if dialect == "postgresql" else func.min
    cap, rate, now = (bindparam(n, type_=Float) for n in ("cap", "rate", "now"))
    stmt = insert(rate_buckets).values(key=bindparam("key"), tokens=cap - 1, at=now, allowed=True)
    # The bucket refilled since its last use, never above its size.
    refilled = least(cap, rate_buckets.c.tokens + (now - rate_buckets.c.at) * rate)
    return stmt.on_conflict_do_update(
        index_elements=[rate_buckets.c.key],
        set_={
            "tokens": case((refilled >= 1, refilled - 1), else_=refilled),
            "at": now,
            "allowed": refilled >= 1,
        },
    ).returning(rate_buckets.c.allowed)


@dataclass(frozen=True)
class Bucket:
    """One limit a request takes from: `new_only` buckets count new players only."""

    key: str
    count: int
    seconds: float
    code: str
    message: str
    new_only: bool = False


class Opened(Protocol):
    """What taking needs of a database (deckcheck.server.database.Database)."""

    @property
    def engine(self) -> Engine: ...

    @property
    def writer(self) -> Engine: ...

    @property
    def sqlite(self) -> bool: ...


@contextmanager
def _relaxed(conn: Connection, sqlite: bool) -> Iterator[None]:
    """SQLite: commit rate buckets without waiting for the disk (synchronous=NORMAL in
    WAL mode: durable when a process dies, not always when the power goes; PostgreSQL:
    synchronous_commit off for the buckets' transaction, the same trade). A bucket
    that loses its last counts to a power cut lets a few more requests in; a list is
    never stored this way. Halves the syncs of a submission: its list's commit still
    waits for the disk, and writes the buckets' WAL frames with it."""
    raw = conn.connection.dbapi_connection if sqlite else None
    if raw is not None:
        raw.execute("PRAGMA synchronous=NORMAL")
    try:
        yield
    finally:
        # A connection thrown away meanwhile (server.writable: it could not write) is
        # closed: it has no setting left to put back.
        if raw is not None and not conn.invalidated:
            raw.execute("PRAGMA synchronous=FULL")


def take_all(
    database: Opened,
    wanted: Sequence[Bucket],
    now: float,
    is_new: Callable[[Connection], bool] | None = None,
) -> Bucket | None:
    """One request against token buckets: checked and counted by one UPSERT each, in
    one transaction, so simultaneous requests cannot all pass. `is_new` says, in the
    same transaction, whether the request adds a player (for `new_only` buckets; a
    product's question). Returns the bucket that refused (and nothing was taken from
    any), or None."""
    statement = take_statement(database.engine.dialect.name)
    with (
        database.writer.connect() as conn,
        _relaxed(conn, database.sqlite),
        conn.begin() as tx,
    ):
        if not database.sqlite:
            # PostgreSQL's equal of _relaxed, for this transaction only.
            conn.exec_driver_sql("SET LOCAL synchronous_commit = off")
        new = is_new is not None and is_new(conn)
        for bucket in wanted:
            if bucket.new_only and not new:
                continue
            values = {"key": bucket.key, "cap": float(bucket.count), "now": now}
            values["rate"] = bucket.count / bucket.seconds
            if not conn.execute(statement, values).scalar_one():
                tx.rollback()
                return bucket
    return None
