"""Bring the server's database to the newest schema with Alembic (SQLite and PostgreSQL).

Run at start-up by every worker: on PostgreSQL an advisory lock lets one worker
migrate while the others wait; on SQLite the write lock does the same.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from rules.cache import memo

HERE = Path(__file__).resolve().parent
ADVISORY_LOCK = 7_301_913  # any constant shared by deckcheck's workers


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    return config


@memo(1)
def head_revision() -> str | None:
    """The newest revision of deckcheck's migrations (read once per process)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None before the first migration)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, revision: str = "head") -> None:
    # A database already at the newest revision (every start but the first, every worker
    # but one) needs no lock and no Alembic run: Alembic reads its environment and every
    # migration file each time, 30-40 ms of CPU for nothing to do.
    if revision == "head" and current_revision(engine) == head_revision():
        return
    config = alembic_config()
    # On SQLite the migration holds the write lock from its first statement (BEGIN
    # IMMEDIATE): two workers starting at once take turns, where a transaction that
    # read first and wrote later would fail with "database is locked".
    with engine.execution_options(write=True).connect() as conn:
        if conn.dialect.name == "postgresql":
            # A migration may wait for another worker's and take its time: the request
            # timeouts of the store's connections (database.WAIT_MS) are not for it.
            conn.execute(text("SET statement_timeout = 0"))
            conn.execute(text("SET lock_timeout = 0"))
            conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": ADVISORY_LOCK})
            conn.commit()
        else:
            # Another worker may be migrating: wait for its write lock (30 s, not the
            # connection's own 1.5 s, which is put back after).
            kept = conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0
            conn.exec_driver_sql("PRAGMA busy_timeout=30000")
        try:
            config.attributes["connection"] = conn
            command.upgrade(config, revision)
            conn.commit()
        finally:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_LOCK})
                conn.execute(text("RESET statement_timeout"))
                conn.execute(text("RESET lock_timeout"))
                conn.commit()
            else:
                conn.exec_driver_sql(f"PRAGMA busy_timeout={int(kept)}")
