"""The card database for a request, and the card pools cached per process."""

from __future__ import annotations

import threading

import sqlite_utils
from flask import Flask, current_app, g

from cardpool.db import connect
from cardpool.imports import seed_starter_pool
from cardpool.store import generations, load_cards
from rules.pool import CardIndex


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

    Each request asks the database for the pools' generations (one small query)
    and rebuilds only an index whose generation moved.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._indexes: dict[str, tuple[int, CardIndex]] = {}

    def index(self, game: str) -> CardIndex:
        if "generations" not in g:
            g.generations = generations(get_db())
        current = g.generations.get(game, 0)
        cached = self._indexes.get(game)
        if cached and cached[0] == current:
            return cached[1]
        with self._lock:
            generation, cards = load_cards(get_db(), game)
            index = CardIndex(game, cards)
            self._indexes[game] = (generation, index)
        return index


def pools() -> PoolCache:
    return current_app.extensions["deckcheck.pools"]


def init_app(app: Flask) -> None:
    db = connect(app.config["DATABASE"])
    try:
        if app.config["SEED_STARTER_POOL"]:
            seed_starter_pool(db)
    finally:
        db.close()
    app.extensions["deckcheck.pools"] = PoolCache()
    app.teardown_appcontext(close_db)
