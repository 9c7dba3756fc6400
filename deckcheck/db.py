"""The card database for a request, and the card pools cached per process."""

from __future__ import annotations

import gc
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from urllib.parse import quote

import sqlite_utils
from flask import Flask, current_app, g

from cardpool import freshness
from cardpool.db import MIGRATIONS, connect
from cardpool.imports import outdated_shipped, seed_starter_pool, starter_games
from cardpool.store import generations, load_cards
from rules.games import GAME_IDS
from rules.pool import CardIndex


def settle_heap() -> None:
    """Move long-lived objects (a freshly built card pool) out of the garbage
    collector's sight.

    A pool is tens of thousands of objects that live as long as the process; every
    full collection scanned them all, which made validation times swing between
    80 and 160 us (bench/validate.py). Frozen objects are still freed by reference
    counting when a newer pool replaces them.
    """
    gc.collect()
    gc.freeze()


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"], migrate=False)
    return g.db


def close_db(exception: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


class PoolCache:
    """Card indexes built once per process and rebuilt when an import changes a pool.

    Each thread keeps one open read connection; `PRAGMA data_version` on it tells
    whether any other connection has committed since that thread last looked. Only
    then are the pools' generations read again, and only an index whose generation
    moved is rebuilt (from one consistent snapshot).

    The process looks at most once every `check_every` seconds. Every SQLite call
    lets go of the GIL, and under concurrent requests each let-go makes the worker's
    threads queue for it again: asking on every request cost a validate request
    180-215 us of CPU with 8 connections on one worker, against 7 us in a quiet
    loop (docs/PERFORMANCE.md, fifth round). A finished import is therefore served within
    `check_every` seconds, not on the very next request.
    """

    def __init__(
        self,
        path: str,
        check_every: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._path = path
        self._check_every = check_every
        self._clock = clock
        self._next_check = -math.inf
        self._seen: dict[str, int] = {}  # each pool's generation at the last look
        self._lock = threading.Lock()
        self._local = threading.local()
        self._indexes: dict[str, tuple[int, CardIndex]] = {}

    def index(self, game: str) -> CardIndex:
        if self._clock() >= self._next_check:
            self._look()
        cached = self._indexes.get(game)
        if cached and cached[0] == self._seen.get(game, 0):
            return cached[1]
        with self._lock:
            cached = self._indexes.get(game)
            if cached and cached[0] == self._seen.get(game, 0):
                return cached[1]
            conn = self._connection()
            generation, cards = load_cards(conn, game)
            index = CardIndex(game, cards, updated=_list_date(conn, game))
            self._indexes[game] = (generation, index)
            # The snapshot just read may be newer than the last look: it is what we know.
            self._seen = {**self._seen, game: generation}
            settle_heap()
        return index

    def indexed(self, game: str) -> tuple[int, CardIndex]:
        """The index `index(game)` serves and its pool's generation, as one pair (the
        events store a verdict with the generation it was judged with; -1: unknown)."""
        index = self.index(game)
        generation, cached = self._indexes.get(game, (-1, None))
        return (generation if cached is index else -1), index

    def _look(self) -> None:
        """The pools' generations, read again only if anything committed since this
        thread's connection last asked."""
        local = self._local
        conn = self._connection()
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != getattr(local, "version", None):
            local.generations = generations(conn)
            local.version = version
        self._seen = local.generations
        self._next_check = self._clock() + self._check_every

    def _connection(self) -> sqlite_utils.Database:
        local = self._local
        if getattr(local, "conn", None) is None:
            local.conn = connect(self._path, migrate=False)
        return local.conn


def pools() -> PoolCache:
    return current_app.extensions["deckcheck.pools"]


def init_app(app: Flask) -> None:
    path = app.config["DATABASE"]
    if not _ready(path, app.config["SEED_STARTER_POOL"]):
        _prepare(app, path)
    pools = PoolCache(path, app.config["POOL_CHECK_SECONDS"])
    app.extensions["deckcheck.pools"] = pools
    app.teardown_appcontext(close_db)
    if not app.testing:
        # Each worker builds its indexes as it starts, so the first player's request does
        # not pay for a 4,000-card pool (0.2-0.4 s); tests build only what they use.
        for game in GAME_IDS:
            pools.index(game)


def _ready(path: str, seeded: bool) -> bool:
    """True when the database needs no write at all: migrated, and seeded if asked.

    Read through a read-only connection, which an import holding the write lock for
    minutes does not block (WAL): a worker booting then starts at once.
    """
    if not os.path.exists(path):
        return False
    try:
        conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True, timeout=5)
        try:
            done = {row[0] for row in conn.execute("SELECT name FROM migrations")}
            if any(name not in done for name, _ in MIGRATIONS):
                return False
            if not seeded:
                return True
            have = {
                game: (source, sha)
                for game, source, sha in conn.execute("SELECT game, source, sha256 FROM pools")
            }
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    # Every shipped list loaded, and none an older release's (a new release replaces it).
    return all(game in have and not outdated_shipped(*have[game], game) for game in starter_games())


def _prepare(app: Flask, path: str) -> None:
    """The first writer migrates and seeds; the write lock is needed only here."""
    db = connect(path)
    try:
        if app.config["SEED_STARTER_POOL"]:
            try:
                seed_starter_pool(db)
            except sqlite3.OperationalError as err:
                # Someone else holds the write lock (an import): serve what is there.
                app.logger.warning("starter pool not seeded now: %s", err)
    finally:
        db.close()


def _list_date(conn: sqlite_utils.Database, game: str) -> str | None:
    """The day the game's card list is of (a shipped list says; else when it was imported),
    for "not in this card list yet ... (list updated <day>)"."""
    cursor = conn.execute("SELECT * FROM pools WHERE game = ?", [game])
    row = cursor.fetchone()
    if row is None:
        return None
    names = [column[0] for column in cursor.description]
    return freshness.list_date(dict(zip(names, row, strict=True))) or None
