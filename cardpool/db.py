"""Opening the card database and keeping its schema current."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

LIST_COLUMNS = ("types", "aliases", "evo_names", "flags", "colors", "traits")
FTS_COLUMNS = ["name", "number", "types", "traits", "aliases", "name_ja"]


def connect(path: str | Path, *, migrate: bool = True) -> sqlite_utils.Database:
    """A connection in WAL mode, so readers keep reading while an import writes.

    `busy_timeout` makes a second writer wait for the first instead of failing:
    two imports at once are serialized by SQLite's own write lock.
    """
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 30000")
    db = sqlite_utils.Database(conn)
    if migrate:
        if db.conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.conn.execute("PRAGMA journal_mode = WAL")
        apply_migrations(db)
    return db


def _create_cards(db: sqlite_utils.Database) -> None:
    db.table("cards").create(
        {
            "game": str,
            "number": str,
            "key": str,
            "name": str,
            "kind": str,
            "level": str,
            "types": str,
            "aliases": str,
            "evo_names": str,
            "flags": str,
            "max_copies": int,
            "set_name": str,
            "name_ja": str,
            "colors": str,
            "traits": str,
            "play_cost": int,
            "dp": int,
            "rarity": str,
        },
        pk=("game", "number"),
        not_null={"game", "number", "key", "kind"},
    )
    db.table("cards").create_index(["game", "key"], unique=True)
    db.table("cards").create_index(["game", "kind", "level"])
    db.table("cards").enable_fts(FTS_COLUMNS, create_triggers=True, tokenize="unicode61")


def _create_pools(db: sqlite_utils.Database) -> None:
    db.table("pools").create(
        {
            "game": str,
            "source": str,
            "imported_at": str,
            "count": int,
            "generation": int,
            "etag": str,
            "last_modified": str,
            "sha256": str,
        },
        pk="game",
    )


def _add_card_text(db: sqlite_utils.Database) -> None:
    """The card's text as its imported list gives it (shown on its page, never shipped)."""
    db.table("cards").add_column("text", str)


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("0001_cards", _create_cards),
    ("0002_pools", _create_pools),
    ("0003_card_text", _add_card_text),
]


def apply_migrations(db: sqlite_utils.Database) -> None:
    """Apply each migration once, in order, each in its own transaction."""
    db.execute("CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
    for name, migrate in MIGRATIONS:
        db.execute("BEGIN IMMEDIATE")
        try:
            done = db.execute("SELECT 1 FROM migrations WHERE name = ?", [name]).fetchone()
            if not done:
                migrate(db)
                db.execute(
                    "INSERT INTO migrations VALUES (?, datetime('now'))",
                    [name],
                )
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            raise
