"""The tables the code queries (deckcheck/server/tables/) are the tables the Alembic
migrations build: autogenerate, run against a freshly migrated database, finds nothing
to add, drop or change, on SQLite and on PostgreSQL."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from deckcheck.events.store import EventStore
from deckcheck.server.tables import metadata


def _differences(store: EventStore) -> list:
    with store.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(context, metadata)


def test_autogenerate_finds_no_difference_between_the_tables_and_the_migrations(
    empty_events_database,
):
    store = EventStore(empty_events_database)
    store.migrate()
    try:
        assert _differences(store) == []
    finally:
        store.close()


def test_the_comparison_sees_a_difference(empty_events_database):
    """The test above can fail: a migration stopped one step short is a difference."""
    from deckcheck.server.migrate import upgrade

    store = EventStore(empty_events_database)
    upgrade(store.engine, "0001")
    try:
        found = _differences(store)
        assert any(d[0] == "add_table" and d[1].name == "rate_buckets" for d in found)
    finally:
        store.close()
