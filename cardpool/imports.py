"""Import and sync: read a source (path or URL), validate it, swap it in."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

from cardpool.errors import CardPoolError, FetchError, SourceFormatError
from cardpool.fetch import Fetched, fetch
from cardpool.importers import parse_source
from cardpool.importers.common import check_text
from cardpool.shipped import (
    OLD_SHIPPED_SOURCE,
    SHIPPED_SOURCE,
    shipped_date,
    shipped_file,
    shipped_rows,
    shipped_sha,
)
from cardpool.store import pool_info, replace_pool
from rules.games import GAME_IDS, GAMES


@dataclass(frozen=True)
class Progress:
    """Callbacks a terminal can turn into progress bars; all optional."""

    download: Callable[[int, int | None], None] | None = None
    rows: Callable[[int], None] | None = None
    total_rows: Callable[[int], None] | None = None


def is_url(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def read_source(source: str, progress: Progress | None = None, **fetch_options: Any) -> Fetched:
    if is_url(source):
        return fetch(source, progress=progress.download if progress else None, **fetch_options)
    path = Path(source)
    try:
        return Fetched(path.read_bytes(), None, None)
    except OSError as err:
        raise FetchError(f"{source}: cannot read the file ({err.strerror})") from err


def import_pool(
    db: sqlite_utils.Database,
    game: str,
    source: str,
    progress: Progress | None = None,
    **fetch_options: Any,
) -> int:
    """Replace `game`'s pool with the cards of `source`; nothing changes on any error."""
    fetched = read_source(source, progress, **fetch_options)
    return _store(db, game, source, fetched, progress)


def sync_pool(
    db: sqlite_utils.Database,
    game: str,
    url: str,
    progress: Progress | None = None,
    **fetch_options: Any,
) -> int | None:
    """Import from `url` unless it is unchanged since the last sync (None then)."""
    known = pool_info(db).get(game) or {}
    same_source = known.get("source") == url
    fetched = fetch(
        url,
        etag=known.get("etag") if same_source else None,
        last_modified=known.get("last_modified") if same_source else None,
        progress=progress.download if progress else None,
        **fetch_options,
    )
    if fetched.content is None:
        return None
    return _store(db, game, url, fetched, progress)


def _store(
    db: sqlite_utils.Database, game: str, source: str, fetched: Fetched, progress: Progress | None
) -> int:
    rows = _parse(game, fetched.content or b"", source)
    if progress and progress.total_rows:
        progress.total_rows(len(rows))
    try:
        return replace_pool(
            db,
            game,
            rows,
            source,
            content=fetched.content,
            etag=fetched.etag,
            last_modified=fetched.last_modified,
            progress=progress.rows if progress else None,
        )
    except sqlite3.OperationalError as err:
        raise CardPoolError(database_problem(err)) from err


def _parse(game: str, content: bytes, source: str, additions: bool = True) -> list[dict]:
    """Validated rows, or a CardPoolError whatever the source holds."""
    try:
        rows = parse_source(game, content, source, additions)
    except RecursionError as err:
        raise SourceFormatError(f"{source}: nested too deeply to be a card list") from err
    except ValueError as err:
        # An importer's own checks name the row; this is the net under them (e.g. a
        # number too long for int()), so a source can never end in a traceback.
        text = " ".join(str(err).split())[:200]
        raise SourceFormatError(f"{source}: a value could not be read ({text})") from err
    check_text(rows, source)
    return rows


def database_problem(err: sqlite3.Error) -> str:
    """One line about a database error, for the person at the terminal."""
    if "locked" in str(err) or "busy" in str(err):
        return (
            "the card database is busy: another import holds its write lock; "
            "try again when it is done"
        )
    return f"the card database could not be used ({err})"


def starter_games() -> list[str]:
    """The games that ship a bundled starter pool."""
    return [g.id for g in GAMES.values() if g.starter_pool]


def seed_starter_pool(db: sqlite_utils.Database) -> list[str]:
    """Load the shipped list of every game that has never had a pool (the full DCG list,
    the Digi-Battle and DMCG starter decks), and replace a pool that is an older shipped
    list (a new release ships a newer one); a pool someone imported is never touched."""
    seeded = []
    for game in starter_games():
        known = pool_info(db).get(game)
        if known is not None and not outdated_shipped(known["source"], known["sha256"], game):
            continue
        content, rows = shipped_rows(game)
        if replace_pool(
            db,
            game,
            list(rows),
            SHIPPED_SOURCE.format(file=shipped_file(game)),
            content=content,
            only_if_absent=known is None,
            only_if_sha=None if known is None else (known["sha256"] or ""),
            list_date=shipped_date(content),
        ):
            seeded.append(game)
    return seeded


def outdated_shipped(source: str | None, sha256: str | None, game: str) -> bool:
    """Is a pool a shipped list other than the one this release ships?"""
    shipped = (source or "") == OLD_SHIPPED_SOURCE or (source or "").startswith(
        SHIPPED_SOURCE.split("(", 1)[0]
    )
    return shipped and sha256 != shipped_sha(game)


__all__ = ["GAME_IDS", "import_pool", "seed_starter_pool", "sync_pool"]
