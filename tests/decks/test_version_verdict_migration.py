"""Migration 0010_version_verdicts: the versions stored before get the verdict they were
told (saved before unconfirmed verdicts existed: legal or illegal), on SQLite and
PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa

from deckcheck.events.store import EventStore
from deckcheck.server.migrate import upgrade


def test_stored_versions_get_legal_or_illegal(empty_events_database):
    store = EventStore(empty_events_database)
    try:
        upgrade(store.engine, "0009_collection_cards")
        with store.engine.begin() as conn:
            for deck_id, legal in (("ok", True), ("bad", False)):
                conn.execute(
                    sa.text(
                        "INSERT INTO decks (id, name, format, notes, edit_hash, version,"
                        " created_at, updated_at, client, has_unknown, fingerprint, legal,"
                        " verdict, judged_world, judged_legal, judged_changed) VALUES (:id,"
                        " 'n', 'dcg', '', 'h', 1, 't', 't', 'c', :f, 'fp', :legal, '{}', 'w',"
                        " :legal, :f)"
                    ),
                    {"id": deck_id, "legal": legal, "f": False},
                )
                conn.execute(
                    sa.text(
                        "INSERT INTO deck_versions (deck_id, version, entry, structured,"
                        " fingerprint, legal, saved_at) VALUES (:id, 1, '{}', '{}', 'fp',"
                        " :legal, 't')"
                    ),
                    {"id": deck_id, "legal": legal},
                )
        upgrade(store.engine)
        with store.engine.begin() as conn:
            rows = dict(conn.execute(sa.text("SELECT deck_id, verdict FROM deck_versions")).all())
        assert rows == {"ok": "legal", "bad": "illegal"}
    finally:
        store.close()
