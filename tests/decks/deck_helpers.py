"""What the saved-deck tests share besides fixtures: an app, a list change imported."""

from __future__ import annotations

import json

from conftest import new_app

from cardpool import list_store
from cardpool.db import connect
from rules.lists import shipped_raw


def make_app(tmp_path, events_database: str, **config):
    config = {"POOL_CHECK_SECONDS": 0, **config}
    return new_app(tmp_path, EVENTS_DATABASE=events_database, **config)


def close(app) -> None:
    store = app.extensions.get("deckcheck.database")  # every store's connections
    if store is not None:
        store.close()


def import_change(app, tmp_path, *changes: dict) -> None:
    """Import the shipped DCG list history with `changes` added (test-only entries), as
    `cardpool lists import` does."""
    raw = shipped_raw()
    raw["changes"] = [*raw["changes"], *changes]
    path = tmp_path / f"lists-{len(list(tmp_path.glob('lists-*')))}.json"
    path.write_text(json.dumps(raw))
    db = connect(app.config["DATABASE"], migrate=False)
    try:
        list_store.import_lists(db, "dcg", str(path))
    finally:
        db.close()


def ban(number: str, effective: str, announced: str | None = None, status="banned") -> dict:
    """A test-only list change."""
    return {
        "effective": effective,
        "announced": announced or effective,
        "limits": [{"card": number, "status": status}],
        "sources": ["test-only change"],
    }
