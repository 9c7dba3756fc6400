"""What the saved-deck tests share besides fixtures: an app, a list change imported."""

from __future__ import annotations

import json

from cardpool import list_store
from cardpool.db import connect
from deckcheck import create_app
from rules.lists import shipped_raw


def make_app(tmp_path, events_database: str, **config):
    (tmp_path / "formats").mkdir(exist_ok=True)
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "cards.db"),
            "FORMATS_DIR": str(tmp_path / "formats"),
            "EVENTS_DATABASE": events_database,
            "SECRET_KEY": "test",
            "CARD_IMAGES": "off",
            "POOL_CHECK_SECONDS": 0,
            **config,
        }
    )


def close(app) -> None:
    store = app.extensions.get("deckcheck.events")
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
