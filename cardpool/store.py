"""Replacing a game's pool as one unit, and reading pools back.

The new rows are validated before this module is called; here they replace the
old ones inside one `BEGIN IMMEDIATE` transaction. SQLite makes that all or
nothing: a crash, a `kill -9` or an error half-way leaves the previous pool whole,
and readers (WAL mode) see the old pool or the new one, never a mix.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, datetime

import sqlite_utils

from cardpool.cards import row_to_card
from rules.model import Card

CHUNK = 500


def replace_pool(
    db: sqlite_utils.Database,
    game: str,
    rows: list[dict],
    source: str,
    *,
    content: bytes | None = None,
    etag: str | None = None,
    last_modified: str | None = None,
    progress: Callable[[int], None] | None = None,
    only_if_absent: bool = False,
    only_if_sha: str | None = None,
    list_date: str | None = None,
) -> int:
    """Swap `game`'s cards for `rows`; returns how many cards the pool now holds.

    `list_date`: the date the list itself is of, when it says (a shipped list does); else
    the list is as new as its import. With `only_if_absent`, a game that already has a pool
    is left alone (returns 0); with `only_if_sha`, one whose pool is no longer that list:
    checked under the write lock, so two workers seeding at once seed once.
    """
    about = {
        "source": source,
        "etag": etag,
        "last_modified": last_modified,
        "sha256": hashlib.sha256(content).hexdigest() if content is not None else None,
        "list_date": list_date,
    }
    db.execute("BEGIN IMMEDIATE")
    try:
        found = db.execute("SELECT sha256 FROM pools WHERE game = ?", [game]).fetchone()
        if _left_alone(found, only_if_absent, only_if_sha):
            db.execute("ROLLBACK")
            return 0
        _swap(db, game, rows, progress, about)
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
    return len(rows)


def _swap(
    db: sqlite_utils.Database,
    game: str,
    rows: list[dict],
    progress: Callable[[int], None] | None,
    about: dict,
) -> None:
    """Inside the write transaction: the game's cards become `rows`, and its pools row
    (`about` the list: source, validators, hash, date) moves one generation on."""
    db.execute("DELETE FROM cards WHERE game = ?", [game])
    insert_rows(db, rows, progress)
    # Products merged in with `cardpool add` stay until a list holds their numbers.
    extra = carry_over(db, game, {row["key"] for row in rows})
    previous = db.execute("SELECT generation FROM pools WHERE game = ?", [game]).fetchone()
    pool = {
        **about,
        "game": game,
        "imported_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "count": len(rows) + extra,
        "generation": (previous[0] if previous else 0) + 1,
    }
    db.table("pools").upsert(pool, pk="game")


def _left_alone(found: tuple | None, only_if_absent: bool, only_if_sha: str | None) -> bool:
    """Is a game's pool (`found`: its sha256 row, None without a pool) to be kept as it
    is: any pool when only an absent one is to be seeded, or one that is no longer the
    list `only_if_sha` names?"""
    if only_if_absent and found:
        return True
    return only_if_sha is not None and (found is None or (found[0] or "") != only_if_sha)


def insert_rows(
    db: sqlite_utils.Database, rows: list[dict], progress: Callable[[int], None] | None
) -> None:
    """One prepared INSERT for every row: sqlite-utils' insert_all looked at every value
    of every row (0.7 s for the DCG list); this takes a tenth of it, so a new database
    loads the whole shipped list at once."""
    if not rows:
        return
    columns = sorted({name for row in rows for name in row})
    sql = f"INSERT INTO cards ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        db.conn.executemany(sql, [[row.get(name) for name in columns] for row in chunk])
        if progress:
            progress(len(chunk))


def pool_info(db: sqlite_utils.Database) -> dict[str, dict]:
    return {row["game"]: row for row in db.table("pools").rows}


def generations(db: sqlite_utils.Database) -> dict[str, int]:
    """Cheap: tells a process whether its cached pools are still current."""
    return dict(db.execute("SELECT game, generation FROM pools").fetchall())


def load_cards(db: sqlite_utils.Database, game: str) -> tuple[int, list[Card]]:
    """A game's generation and cards, read in one transaction (one consistent snapshot)."""
    db.execute("BEGIN")
    try:
        found = db.execute("SELECT generation FROM pools WHERE game = ?", [game]).fetchone()
        rows = db.query("SELECT * FROM cards WHERE game = ?", [game])
        cards = [row_to_card(row) for row in rows]
    finally:
        db.execute("COMMIT")
    return (found[0] if found else 0), cards


def carry_over(db: sqlite_utils.Database, game: str, keys: set[str]) -> int:
    """Inside an import's transaction, after its rows are in: put back the added cards
    the new list lacks; a product whose numbers the new list all holds is dropped from
    `added` (the list took its place). Returns how many cards were put back."""
    back = 0
    for product, text in db.execute(
        "SELECT product, rows FROM added WHERE game = ?", [game]
    ).fetchall():
        rows = [row for row in json.loads(text) if row["key"] not in keys]
        if not rows:
            db.execute("DELETE FROM added WHERE game = ? AND product = ?", [game, product])
            continue
        insert_rows(db, rows, None)
        keys |= {row["key"] for row in rows}
        back += len(rows)
    return back
