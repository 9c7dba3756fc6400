"""Migration 0009_collection_cards: collections stored packed (one column of number ->
count) become one row per card number, their counts kept, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa

from deckcheck.events.store import EventStore
from deckcheck.server.migrate import upgrade
from deckcheck.server.packing import pack


def test_packed_collections_become_rows_with_their_counts(empty_events_database):
    store = EventStore(empty_events_database)
    try:
        upgrade(store.engine, "0008_venue")
        big = {f"BT1-{n:03d}": n for n in range(1, 120)}  # packed as "z:" (over 2 KB)
        with store.engine.begin() as conn:
            for cid, cards in (("small", {"ST1-03": 4}), ("big", big), ("empty", {})):
                conn.execute(
                    sa.text(
                        "INSERT INTO collections (id, name, game, edit_hash, cards, entries,"
                        " created_at, updated_at) VALUES (:id, 'n', 'dcg', 'h', :cards, :entries,"
                        " 't', 't')"
                    ),
                    {"id": cid, "cards": pack(cards), "entries": len(cards)},
                )
        upgrade(store.engine)
        with store.engine.begin() as conn:
            rows = conn.execute(
                sa.text("SELECT collection_id, number, count FROM collection_cards")
            ).all()
            columns = {c["name"] for c in sa.inspect(conn).get_columns("collections")}
        found: dict[str, dict[str, int]] = {}
        for cid, number, count in rows:
            found.setdefault(cid, {})[number] = count
        assert found == {"small": {"ST1-03": 4}, "big": big}
        assert "cards" not in columns
    finally:
        store.close()
