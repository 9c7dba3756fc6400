"""Import and sync: read a source (path or URL), validate it, swap it in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import sqlite_utils

from cardpool.errors import FetchError
from cardpool.fetch import Fetched, fetch
from cardpool.importers import parse_source
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


def read_source(source: str, progress: Progress | None = None, **fetch_options) -> Fetched:
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
    **fetch_options,
) -> int:
    """Replace `game`'s pool with the cards of `source`; nothing changes on any error."""
    fetched = read_source(source, progress, **fetch_options)
    assert fetched.content is not None
    return _store(db, game, source, fetched, progress)


def sync_pool(
    db: sqlite_utils.Database,
    game: str,
    url: str,
    progress: Progress | None = None,
    **fetch_options,
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


def _store(db, game: str, source: str, fetched: Fetched, progress: Progress | None) -> int:
    rows = parse_source(game, fetched.content or b"", source)
    if progress and progress.total_rows:
        progress.total_rows(len(rows))
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


def seed_starter_pool(db: sqlite_utils.Database) -> list[str]:
    """Load the bundled starter pool for every game that has never had a pool."""
    seeded = []
    for game in (g.id for g in GAMES.values() if g.starter_pool):
        if game in pool_info(db):
            continue
        content = resources.files("cardpool.starter").joinpath(f"{game}.csv").read_bytes()
        rows = parse_source(game, content, f"starter:{game}.csv")
        if replace_pool(
            db, game, rows, "bundled starter pool", content=content, only_if_absent=True
        ):
            seeded.append(game)
    return seeded


__all__ = ["GAME_IDS", "import_pool", "seed_starter_pool", "sync_pool"]
