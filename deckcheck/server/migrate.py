"""Bring the server's database to the newest schema with Alembic (SQLite and PostgreSQL).

Run at start-up by every worker: on PostgreSQL an advisory lock lets one worker
migrate while the others wait; on SQLite the write lock does the same.

Alembic itself is imported only when a database needs a migration. A start on a
database at the newest schema (every start but the first) compares its revision with
the newest one named in the migration files' text: importing Alembic cost each process
that starts (a gunicorn master, a `flask` command) 0.1-0.2 s of CPU for nothing to do.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from rules.cache import memo

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent
VERSIONS = HERE / "migrations" / "versions"
ADVISORY_LOCK = 7_301_913  # any constant shared by deckcheck's workers
# A migration file's own revision and the one before it, as Alembic's template writes them.
_REVISION = re.compile(r'^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(?:"([^"]+)"|None)\s*$', re.M)


def alembic_config() -> Config:
    from alembic.config import Config  # Alembic only when it runs (the module's docstring)

    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    return config


@memo(1)
def head_revision() -> str | None:
    """The newest revision of deckcheck's migrations (read once per process): the one no
    migration names as the one before it. Alembic's own reading is asked only if the
    files do not make one line of revisions (tests/events/test_head_revision.py holds
    the two to the same answer)."""
    named, before = set(), set()
    for path in VERSIONS.glob("*.py"):
        found: dict[str, str | None] = {
            match[1]: match[2] for match in _REVISION.finditer(path.read_text())
        }
        if "revision" not in found or "down_revision" not in found:
            return alembic_head()
        named.add(found["revision"])
        before.add(found["down_revision"])
    heads = named - before
    return heads.pop() if len(heads) == 1 and len(named) == len(before) else alembic_head()


def alembic_head() -> str | None:
    from alembic.script import ScriptDirectory  # Alembic only when it runs

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
            from alembic import command  # Alembic only when it runs

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
