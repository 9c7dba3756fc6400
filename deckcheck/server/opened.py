"""The app's database, opened (and migrated) on first use.

A module of its own, under every product's store and the rate limits that ask it, so
none of them imports another to reach the database (issue 40: the circle core <->
limits). Each product keeps its store on this one Database (events.core.store,
decks.core.store, accounts.api.store).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from flask import current_app

from deckcheck.server.database import Database

_lock = threading.Lock()
KEY = "deckcheck.database"
T = TypeVar("T")


def database() -> Database:
    """The app's database, opened (and migrated) on first use, so an app that never
    stores anything never creates it."""
    found = current_app.extensions.get(KEY)
    if found is None:
        with _lock:
            found = current_app.extensions.get(KEY)
            if found is None:
                found = Database(current_app.config["EVENTS_DATABASE"])
                found.migrate()
                current_app.extensions[KEY] = found
    return found


def product_store(key: str, make: Callable[[Database], T]) -> T:
    """The app's store of one product, `make(database)`, made once per app."""
    found = current_app.extensions.get(key)
    if found is None:
        opened = database()
        with _lock:
            found = current_app.extensions.get(key)
            if found is None:
                found = current_app.extensions[key] = make(opened)
    return found
