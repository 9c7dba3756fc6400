"""List histories (banned / restricted / choice) kept in the card database, beside the pools.

`cardpool lists import dcg FILE_OR_URL` checks a history whole (`rules.list_check`) and
swaps it in as one transaction: the one in use moves to the `previous` slot, the new one
becomes `current` with the next generation. A bad file changes nothing. With no imported
history the shipped one (`rules/data/dcg_lists.json`) serves. A running service reads
the generation at most once a second (deckcheck.format_registry) and rebuilds its
formats when it moved.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from cardpool.errors import CardPoolError, SourceFormatError
from cardpool.fetch import Fetched, fetch
from cardpool.imports import read_source
from rules.cache import Bounded
from rules.games import GAMES, GAMES_WITH_LISTS, LISTS_GAME
from rules.list_check import ListFileError, check_history
from rules.lists import ListHistory, load_history, shipped_raw
from rules.nesting import MAX_DEPTH, bracket_depth

MAX_BYTES = 4 * 1024 * 1024
CURRENT, PREVIOUS = "current", "previous"
# How a list sync is recorded among the pools' syncs (cardpool.freshness, GET /api/v1/pools).
SYNC_KEY = "lists:{game}"


@dataclass(frozen=True)
class Stored:
    """A history with where it came from: `generation` 0 is the shipped one."""

    history: ListHistory
    raw: dict
    source: str
    updated: str | None
    generation: int


_lock = threading.Lock()
# (database path, game, generation) -> the parsed history: parsed once per process.
_parsed: Bounded[tuple[str, str, int], Stored] = Bounded(64)


def _db_key(db: sqlite_utils.Database) -> str:
    row = db.execute("PRAGMA database_list").fetchone()
    return row[2] if row else ""


def shipped(game: str = LISTS_GAME) -> Stored:
    name = GAMES[game].dated.lists
    if name is None:
        raise CardPoolError(f"{game} has no dated lists")
    history = load_history(name)
    raw = shipped_raw(name)
    return Stored(history, raw, history.source or "", history.updated, 0)


def generation(db: sqlite_utils.Database, game: str = LISTS_GAME) -> int:
    """Cheap: the current history's generation (0: the shipped one serves)."""
    row = db.execute(
        "SELECT generation FROM lists WHERE game = ? AND slot = ?", [game, CURRENT]
    ).fetchone()
    return row[0] if row else 0


def current(db: sqlite_utils.Database, game: str = LISTS_GAME) -> Stored:
    return _slot(db, game, CURRENT) or shipped(game)


def previous(db: sqlite_utils.Database, game: str = LISTS_GAME) -> Stored | None:
    """The history the current one replaced: the shipped one after a first import."""
    found = _slot(db, game, PREVIOUS)
    if found is None and _slot(db, game, CURRENT) is not None:
        return shipped(game)
    return found


def _slot(db: sqlite_utils.Database, game: str, slot: str) -> Stored | None:
    row = db.execute(
        "SELECT body, source, imported_at, generation FROM lists WHERE game = ? AND slot = ?",
        [game, slot],
    ).fetchone()
    if row is None:
        return None
    key = (_db_key(db), f"{game}:{slot}", row[3])
    cached = _parsed.get(key)
    if cached is not None:
        return cached
    raw = json.loads(row[0])
    # Checked when imported; read back as it was stored.
    history, _ = check_history(raw, None, row[1], row[2][:10])
    stored = Stored(history, raw, row[1], row[2][:10], row[3])
    with _lock:
        _parsed.keep(key, stored)
    return stored


def known_keys(db: sqlite_utils.Database, game: str) -> set[str]:
    return {row[0] for row in db.execute("SELECT key FROM cards WHERE game = ?", [game])}


def check(
    db: sqlite_utils.Database, game: str, content: bytes, source: str
) -> tuple[dict, list[str]]:
    """The parsed file and its warnings; ListFileError / SourceFormatError when wrong."""
    if game not in GAMES_WITH_LISTS:
        raise SourceFormatError(f"{game} has no dated lists; only {', '.join(GAMES_WITH_LISTS)}")
    raw = _parse(content, source)
    try:
        _, warnings = check_history(raw, known_keys(db, game), source)
    except ListFileError as err:
        raise SourceFormatError(f"{source}: {err}") from err
    return raw, warnings


def _parse(content: bytes, source: str) -> Any:
    """The file's JSON, nested at most MAX_DEPTH deep (as organizer format files are).

    The depth is measured before the parser sees the text: json recurses once per `[` or
    `{`, and a file nested 10,000 deep would end in a RecursionError, not a message.
    """
    deep = SourceFormatError(
        f"{source}: nested more than {MAX_DEPTH} deep (a list history needs 7 levels at most)"
    )
    try:
        text = content.decode(json.detect_encoding(content))
    except UnicodeDecodeError as err:
        raise SourceFormatError(f"{source}: not valid JSON ({err})") from err
    if bracket_depth(text) > MAX_DEPTH:
        raise deep
    try:
        return json.loads(text)
    except ValueError as err:
        raise SourceFormatError(f"{source}: not valid JSON ({err})") from err
    except RecursionError as err:  # the count above is an upper bound; never rely on it alone
        raise deep from err


def import_lists(
    db: sqlite_utils.Database, game: str, source: str, **fetch_options: Any
) -> tuple[Stored, list[str]]:
    """Replace `game`'s history with the one at `source` (path or URL); all or nothing."""
    fetched = read_source(source, None, max_bytes=MAX_BYTES, **fetch_options)
    return _store(db, game, source, fetched)


def sync_lists(
    db: sqlite_utils.Database, game: str, url: str, **fetch_options: Any
) -> tuple[Stored | None, list[str]]:
    """Import from `url` unless unchanged since the last sync (ETag / Last-Modified)."""
    row = db.execute(
        "SELECT source, etag, last_modified FROM lists WHERE game = ? AND slot = ?",
        [game, CURRENT],
    ).fetchone()
    same = row is not None and row[0] == url
    fetched = fetch(
        url,
        etag=row[1] if same else None,
        last_modified=row[2] if same else None,
        max_bytes=MAX_BYTES,
        **fetch_options,
    )
    if fetched.content is None:
        return None, []
    return _store(db, game, url, fetched)


def _store(
    db: sqlite_utils.Database, game: str, source: str, fetched: Fetched
) -> tuple[Stored, list[str]]:
    content = fetched.content or b""
    if len(content) > MAX_BYTES:
        raise SourceFormatError(f"{source}: larger than {MAX_BYTES // (1024 * 1024)} MB")
    raw, warnings = check(db, game, content, source)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    db.execute("BEGIN IMMEDIATE")
    try:
        old = db.execute(
            "SELECT generation FROM lists WHERE game = ? AND slot = ?", [game, CURRENT]
        ).fetchone()
        db.execute("DELETE FROM lists WHERE game = ? AND slot = ?", [game, PREVIOUS])
        db.execute(
            "UPDATE lists SET slot = ? WHERE game = ? AND slot = ?", [PREVIOUS, game, CURRENT]
        )
        db.execute(
            "INSERT INTO lists (game, slot, body, source, imported_at, generation, etag, "
            "last_modified) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                game,
                CURRENT,
                json.dumps(raw, ensure_ascii=False),
                source,
                now,
                (old[0] if old else 0) + 1,
                fetched.etag,
                fetched.last_modified,
            ],
        )
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
    return current(db, game), warnings


def describe(stored: Stored | None) -> str:
    """One line for `cardpool lists show`."""
    if stored is None:
        return "none"
    # The latest rule in force: a reported change (one source) is no rule yet.
    dated = [c.effective for c in stored.history.changes if c.effective and not c.reported]
    latest = max(dated).isoformat() if dated else "no dated change"
    return (
        f"{stored.source}, updated {stored.updated or 'unknown'}: "
        f"{len(stored.history.changes)} changes, the latest effective {latest}"
    )


__all__ = ["CardPoolError", "Stored", "current", "import_lists", "previous", "sync_lists"]
