"""Opening the card database and keeping its schema current."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

LIST_COLUMNS = ("types", "aliases", "evo_names", "flags", "colors", "traits")


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


def _drop_full_text_index(db: sqlite_utils.Database) -> None:
    """The full-text index kept by triggers was never queried (cardpool.search reads the
    pool in memory): every import paid for it, twice the rows written, for nothing.
    Databases made before this migration had it; newer ones never do."""
    for trigger in ("cards_ai", "cards_ad", "cards_au"):
        db.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    db.execute("DROP TABLE IF EXISTS cards_fts")


def _add_treated_as(db: sqlite_utils.Database) -> None:
    """The number a printing also counts as (DCG "Card number: Also treated as [XX]")."""
    db.table("cards").add_column("treated_as", str)


def _create_lists(db: sqlite_utils.Database) -> None:
    """Imported list histories (banned / restricted / choice), beside the pools.

    One row per game and slot: `current` serves, `previous` is the one it replaced.
    """
    db.table("lists").create(
        {
            "game": str,
            "slot": str,
            "body": str,
            "source": str,
            "imported_at": str,
            "generation": int,
            "etag": str,
            "last_modified": str,
        },
        pk=("game", "slot"),
    )


def _create_syncs(db: sqlite_utils.Database) -> None:
    """The last background or command-line sync of each game: when, how it went; and
    the date a pool's list is of, when the list says (the shipped one does)."""
    db.table("syncs").create(
        {"game": str, "at": str, "result": str, "message": str},
        pk="game",
    )
    db.table("pools").add_column("list_date", str)


def _create_added(db: sqlite_utils.Database) -> None:
    """Products merged in with `cardpool add` (issue 43): their rows are kept here too,
    so a later import or sync of the whole list keeps them unless it holds their numbers."""
    db.table("added").create(
        {"game": str, "product": str, "source": str, "added_at": str, "rows": str},
        pk=("game", "product"),
    )


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("0001_cards", _create_cards),
    ("0002_pools", _create_pools),
    ("0003_card_text", _add_card_text),
    ("0004_drop_fts", _drop_full_text_index),
    ("0005_treated_as", _add_treated_as),
    ("0006_lists", _create_lists),
    ("0007_syncs", _create_syncs),
    ("0008_added", _create_added),
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
