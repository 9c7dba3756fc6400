"""The live table's changes (issue 44): what changed since a cursor the database gives,
so two servers sharing one database (PostgreSQL, or one SQLite file) answer alike."""

from __future__ import annotations

import pytest
from conftest import new_app
from event_requests import admin_auth, create_event, submit


@pytest.fixture
def two_servers(events_database, tmp_path):
    """Two apps (as two machines would run) on one events database."""
    apps = [new_app(tmp_path / name, EVENTS_DATABASE=events_database) for name in ("a", "b")]
    yield [app.test_client() for app in apps]
    for app in apps:
        if "deckcheck.events" in app.extensions:
            app.extensions["deckcheck.events"].close()


@pytest.fixture(autouse=True)
def _folders(tmp_path):
    for name in ("a", "b"):
        (tmp_path / name).mkdir()


def _changes(client, event, since=""):
    got = client.get(
        f"/api/v1/events/{event['id']}/changes?since={since}", headers=admin_auth(event)
    )
    assert got.status_code == 200, got.get_json()
    body = got.get_json()
    return [
        (c["kind"], c["submission"]["player"], c["submission"]["status"]) for c in body["data"]
    ], body["cursor"]


def test_changes_since_a_cursor_across_two_servers(two_servers):
    one, other = two_servers
    event = create_event(one)
    _, start = _changes(other, event)
    assert start == "0"
    alice = submit(one, event, "Alice").get_json()
    found, cursor = _changes(other, event, start)
    assert found == [("submitted", "Alice", "current")]
    assert _changes(other, event, cursor) == ([], cursor)  # nothing new: the same cursor
    submit(other, event, "Alice", edit_token=alice["edit_token"])
    bob = submit(one, event, "Bob").get_json()["submission"]["id"]
    base = f"/api/v1/events/{event['id']}/submissions/{bob}"
    one.post(base + "/check-in", headers=admin_auth(event))
    one.delete(base, headers=admin_auth(event))
    other.post(base + "/restore", headers=admin_auth(event))
    found, later = _changes(one, event, cursor)
    assert found == [
        ("replaced", "Alice", "replaced"),
        ("replaced", "Alice", "current"),
        ("submitted", "Bob", "current"),
        ("checked-in", "Bob", "current"),
        ("dropped", "Bob", "current"),  # each change shows the submission as it is now
        ("restored", "Bob", "current"),
    ]
    assert int(later) > int(cursor)


def test_the_changes_need_the_token_and_a_cursor(two_servers):
    one, _ = two_servers
    event = create_event(one)
    base = f"/api/v1/events/{event['id']}/changes"
    assert one.get(base).status_code == 401
    for bad in ("x", "-1", "1e3", "９", "9" * 30):
        assert one.get(f"{base}?since={bad}", headers=admin_auth(event)).status_code == 422


def test_a_live_update_renders_the_changed_rows(two_servers):
    one, other = two_servers
    event = create_event(one)
    sid = submit(one, event, "Alice").get_json()["submission"]["id"]
    rows = other.get(f"/e/{event['id']}/admin/rows?ids={sid},nope", headers=admin_auth(event))
    html = rows.get_data(as_text=True)
    assert rows.status_code == 200 and html.count("<tr") == 1 and f'data-id="{sid}"' in html
    assert other.get(f"/e/{event['id']}/admin/rows?ids={sid}").status_code == 401
