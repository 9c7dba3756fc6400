"""Migration 0008_venue on a database that holds events and lists (SQLite and
PostgreSQL): the rows stored before get the defaults (publish nothing, no cut-off, no
marks) and every call keeps working."""

from __future__ import annotations

from event_requests import admin_auth, create_event, submit

from deckcheck.server.migrate import upgrade


def test_rows_stored_before_the_migration_get_the_defaults(both_client):
    client = both_client
    event = create_event(client)
    sid = submit(client, event, "Alice").get_json()["submission"]["id"]
    store = client.application.extensions["deckcheck.events"]
    from alembic import command

    from deckcheck.server.migrate import alembic_config

    with store.engine.execution_options(write=True).connect() as conn:
        config = alembic_config()
        config.attributes["connection"] = conn
        command.downgrade(config, "0005")
        conn.commit()
    upgrade(store.engine)
    got = client.get(f"/api/v1/events/{event['id']}").get_json()
    assert (got["publish"], got["cutoff"]) == ("none", "none")
    assert got["venue"] == {"address_limit": "600/600", "new_players_limit": "400/600"}
    rows = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    (alice,) = rows.get_json()["data"]
    assert alice["id"] == sid and alice["verdict"] == "legal"
    assert not (alice["checked_in"] or alice["accepted"] or alice["published"])
    changes = client.get(f"/api/v1/events/{event['id']}/changes", headers=admin_auth(event))
    assert changes.get_json() == {"data": [], "cursor": "0"}
    assert submit(client, event, "Bob").status_code == 201
