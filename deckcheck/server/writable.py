"""Whether the server's database takes writes, and what becomes of a connection that cannot.

A SQLite file that is read-only for a moment (a wrong chmod, a backup tool, a remount) is
opened read-only by a connection made then, and SQLite never reopens it: that pooled
connection refused every save until the worker was restarted, although the file was
writable again. A PostgreSQL connection left on a server that went read-only (a standby
after a failover) is the same. So a connection that fails because it cannot write is
thrown away (with the rest of the pool, opened at the same time), and the next request
opens a fresh one; until a write succeeds again, `problem()` says why, for the health
check, and the log names the cause, not only `OperationalError`.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable

from sqlalchemy import event, false
from sqlalchemy.engine import Connection, Engine, ExceptionContext
from sqlalchemy.exc import DBAPIError, OperationalError

from deckcheck.server.tables.events import events

# The logger operators already filter on (these messages were the events store's first).
log = logging.getLogger("deckcheck.events")

# SQLite primary result codes (the low byte of an extended code) of a connection that
# cannot write: READONLY (and READONLY_*), IOERR (and IOERR_*), FULL, CANTOPEN.
SQLITE_CANNOT_WRITE = {8: "read-only", 10: "I/O error", 13: "disk full", 14: "cannot open"}
# PostgreSQL's read_only_sql_transaction: a standby, or default_transaction_read_only.
POSTGRES_READ_ONLY = "25006"
PROBE_EVERY = 1.0  # seconds between two probes of a database known not to take writes
# A write that changes nothing, refused by a read-only connection (SQLite and PostgreSQL).
PROBE = events.delete().where(false())


def cannot_write(err: BaseException | None) -> bool:
    """Did the database refuse because it cannot write (not: busy, a bad statement)?"""
    if isinstance(err, sqlite3.Error):
        return (getattr(err, "sqlite_errorcode", 0) or 0) & 0xFF in SQLITE_CANNOT_WRITE
    return getattr(err, "sqlstate", None) == POSTGRES_READ_ONLY


def cause(err: BaseException | None) -> str:
    """The driver's own words, one line (never the statement or its parameters, which can
    hold a token's hash)."""
    if err is None:
        return "unknown"
    name = getattr(err, "sqlite_errorname", None) or type(err).__name__
    words = (str(err).strip().splitlines() or [""])[0][:200]
    return f"{name}: {words}" if words else name


class WriteHealth:
    """Watches one engine: throws away connections that cannot write, remembers why."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.monotonic) -> None:
        self.engine = engine
        self.clock = clock
        self._problem: str | None = None
        self._next_probe = 0.0
        event.listen(engine, "handle_error", self._on_error)
        event.listen(engine, "commit", self._on_commit)

    def _on_error(self, context: ExceptionContext) -> OperationalError | None:
        err = context.original_exception
        if not cannot_write(err):
            return None
        # A disconnect to SQLAlchemy: this connection is closed and the pool's others,
        # opened before it, are replaced on their next checkout.
        context.is_disconnect = True
        context.invalidate_pool_on_disconnect = True
        self._problem = cause(err)
        self._next_probe = self.clock() + PROBE_EVERY
        log.warning("events database not writable (%s): connection thrown away", self._problem)
        if isinstance(context.sqlalchemy_exception, OperationalError):
            return None
        # PostgreSQL's read-only refusal is an InternalError: raised as the OperationalError
        # every store route answers 503 (send it again), not a 500.
        return OperationalError(context.statement, context.parameters, err, True, True)

    def _on_commit(self, conn: Connection) -> None:
        if self._problem is not None and conn.get_execution_options().get("write"):
            log.warning("events database writable again (was: %s)", self._problem)
            self._problem = None

    def problem(self) -> str | None:
        """Why the database does not take writes now, or None. Costs nothing while writes
        succeed; once one failed, a write that changes nothing is tried at most once a
        second, so the answer turns back by itself when the database is writable again."""
        if self._problem is not None and self.clock() >= self._next_probe:
            self._next_probe = self.clock() + PROBE_EVERY
            try:
                with self.engine.execution_options(write=True).begin() as conn:
                    conn.execute(PROBE)
            except DBAPIError as err:
                if not cannot_write(err.orig):
                    log.warning("events database probe failed: %s", cause(err.orig))
        return self._problem
