"""The card database for a request, and the card pools cached per process."""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
from urllib.parse import quote

import sqlite_utils
from flask import Flask, current_app, g

from cardpool.db import MIGRATIONS, connect
from cardpool.imports import seed_starter_pool, starter_games
from cardpool.store import generations, load_cards
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

    Each thread keeps one open read connection; `PRAGMA data_version` on it tells,
    for almost nothing, whether any other connection has committed since the last
    look. Only then are the pools' generations read again, and only an index whose
    generation moved is rebuilt (from one consistent snapshot).
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._local = threading.local()
        self._indexes: dict[str, tuple[int, CardIndex]] = {}

    def _generations(self) -> dict[str, int]:
        local = self._local
        if getattr(local, "conn", None) is None:
            local.conn = connect(self._path, migrate=False)
            local.version = None
        version = local.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != local.version:
            local.generations = generations(local.conn)
            local.version = version
        return local.generations

    def index(self, game: str) -> CardIndex:
        current = self._generations().get(game, 0)
        cached = self._indexes.get(game)
        if cached and cached[0] == current:
            return cached[1]
        with self._lock:
            cached = self._indexes.get(game)
            if cached and cached[0] == current:
                return cached[1]
            generation, cards = load_cards(self._local.conn, game)
            index = CardIndex(game, cards)
            self._indexes[game] = (generation, index)
            settle_heap()
        return index


def pools() -> PoolCache:
    return current_app.extensions["deckcheck.pools"]


def init_app(app: Flask) -> None:
    path = app.config["DATABASE"]
    if not _ready(path, app.config["SEED_STARTER_POOL"]):
        _prepare(app, path)
    app.extensions["deckcheck.pools"] = PoolCache(path)
    app.teardown_appcontext(close_db)


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
            have = {row[0] for row in conn.execute("SELECT game FROM pools")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return set(starter_games()) <= have


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
