"""The organizer's side of one row per player (issue 35) and the event's time zone, on
SQLite and PostgreSQL: names that look alike are flagged, two rows merge into one with
both lists in its history, a list is shown on demand, and times are written in the
event's zone, which both databases accept and refuse alike."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from event_requests import admin_auth, create_event, submit
from fixture_cards import ST1_TEXT

from deckcheck.words import MONTHS

ILLEGAL = "4 ST1-03"


@pytest.fixture
def client(both_client):
    return both_client


def table(client, event) -> list[dict]:
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    assert response.status_code == 200
    return response.get_json()["data"]


def merge(client, event, keep: str, other, auth=True):
    return client.post(
        f"/api/v1/events/{event['id']}/submissions/{keep}/merge",
        json={"from": other},
        headers=admin_auth(event) if auth else {},
    )


def test_names_that_look_alike_are_flagged_and_merge_into_one_row(client):
    event = create_event(client)
    first = submit(client, event, "Carol Chen", decklist=ILLEGAL, player_id="0000333")
    second = submit(client, event, "Chen, Carol", decklist=ST1_TEXT)
    other = submit(client, event, "Bob Baker")
    assert {first.status_code, second.status_code, other.status_code} == {201}
    old, new = first.get_json(), second.get_json()
    rows = {r["player"]: r for r in table(client, event)}
    assert rows["Carol Chen"]["alike"] == [{"id": new["submission"]["id"], "player": "Chen, Carol"}]
    assert rows["Chen, Carol"]["alike"] == [{"id": old["submission"]["id"], "player": "Carol Chen"}]
    assert rows["Bob Baker"]["alike"] == []

    merged = merge(client, event, new["submission"]["id"], old["submission"]["id"])
    assert merged.status_code == 200, merged.get_json()
    rows = table(client, event)
    carol = [r for r in rows if "Carol" in r["player"]]
    assert len(rows) == 2 and len(carol) == 1
    assert carol[0]["player"] == "Chen, Carol" and carol[0]["legal"] and carol[0]["version"] == 2
    assert carol[0]["alike"] == []
    # Both lists are in the player's history, the old one first.
    from deckcheck.events.core import store

    with client.application.app_context():
        kept = store().submission(event["id"], new["submission"]["id"])
        history = store().history(event["id"], kept["player_key"])
    assert [h["id"] for h in history] == [old["submission"]["id"], new["submission"]["id"]]
    assert [h["status"] for h in history] == ["replaced", "current"]
    # The kept row's private link still edits it; the merged one's opens nothing.
    mine = f"/api/v1/events/{event['id']}/submissions/mine"
    assert (
        client.get(mine, headers={"Authorization": "Bearer " + new["edit_token"]}).status_code
        == 200
    )
    assert (
        client.get(mine, headers={"Authorization": "Bearer " + old["edit_token"]}).status_code
        == 403
    )
    again = submit(client, event, "Chen, Carol", edit_token=new["edit_token"])
    assert again.status_code == 201 and len(table(client, event)) == 2
    assert [r["version"] for r in table(client, event) if "Carol" in r["player"]] == [3]
    # A name of the merged row is still that player's: no second row under it.
    assert submit(client, event, "chen, CAROL").status_code == 409


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"from": "no-such-row"}, 404, "submission-not-found"),
        ({}, 422, "invalid-request"),
        ({"from": "a b"}, 422, "invalid-request"),
        ({"from": 12}, 422, "invalid-request"),
    ],
)
def test_a_merge_that_cannot_be_done_says_why(client, body, status, code):
    event = create_event(client)
    sid = submit(client, event, "Alice").get_json()["submission"]["id"]
    answer = client.post(
        f"/api/v1/events/{event['id']}/submissions/{sid}/merge",
        json=body,
        headers=admin_auth(event),
    )
    assert answer.status_code == status and answer.get_json()["error"]["code"] == code
    assert [r["version"] for r in table(client, event)] == [1]


def test_a_row_merges_only_with_another_current_row_and_by_the_organizer(client):
    event = create_event(client)
    a = submit(client, event, "Alice").get_json()["submission"]["id"]
    b = submit(client, event, "Alicia").get_json()["submission"]["id"]
    assert merge(client, event, a, a).status_code == 422
    assert merge(client, event, a, b, auth=False).status_code == 401
    url = f"/api/v1/events/{event['id']}/submissions/{b}"
    assert client.delete(url, headers=admin_auth(event)).status_code == 204
    assert merge(client, event, a, b).status_code == 404  # dropped: restore it first
    assert [r["player"] for r in table(client, event)] == ["Alice"]


def test_the_organizer_reads_a_list_on_demand(client):
    event = create_event(client)
    sent = submit(client, event, "Alice", decklist=ST1_TEXT).get_json()["submission"]
    url = f"/api/v1/events/{event['id']}/submissions/{sent['id']}"
    assert client.get(url).status_code == 401
    answer = client.get(url, headers=admin_auth(event))
    assert answer.status_code == 200 and answer.get_json()["decklist"] == ST1_TEXT
    assert answer.get_json()["submission"]["player"] == "Alice"
    other = f"/api/v1/events/{event['id']}/submissions/nothing-here"
    assert client.get(other, headers=admin_auth(event)).status_code == 404


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        (None, "+01:00"),  # the deadline's offset (event_requests.LATER)
        ("Europe/Paris", "Europe/Paris"),
        ("America/New_York", "America/New_York"),
        ("-05:30", "-05:30"),
        ("utc", "UTC"),
    ],
)
def test_an_event_keeps_its_time_zone(client, given, stored):
    extra = {} if given is None else {"time_zone": given}
    event = create_event(client, **extra)
    assert event["time_zone"] == stored
    assert client.get(f"/api/v1/events/{event['id']}").get_json()["time_zone"] == stored


@pytest.mark.parametrize(
    "zone", ["Mars/Olympus", "", " ", "+25:00", "Europe/Paris\x00", "x" * 65, "../etc/passwd", 5]
)
def test_a_time_zone_that_is_none_is_a_422_on_both_databases(client, zone):
    body = {"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"}
    answer = client.post("/api/v1/events", json={**body, "time_zone": zone})
    assert answer.status_code == 422
    assert "time_zone" in answer.get_json()["error"]["details"]["fields"]


def test_sheets_and_the_table_write_times_in_the_events_zone(client):
    event = create_event(client, time_zone="Asia/Tokyo")
    sent = submit(client, event, "Alice").get_json()["submission"]
    changed = client.patch(
        f"/api/v1/events/{event['id']}",
        json={"time_zone": "Pacific/Auckland"},
        headers=admin_auth(event),
    )
    assert changed.status_code == 200 and changed.get_json()["time_zone"] == "Pacific/Auckland"
    local = datetime.fromisoformat(sent["submitted_at"]).astimezone(ZoneInfo("Pacific/Auckland"))
    words = (
        f"{local.day} {MONTHS[local.month - 1]} {local.year} at {local:%H:%M} (Pacific/Auckland)"
    )
    sheets = client.post(
        f"/e/{event['id']}/admin/sheets", data={"token": event["admin_token"]}
    ).get_data(as_text=True)
    assert words in sheets and "time zone, Pacific/Auckland" in sheets
    page = client.get(f"/e/{event['id']}/admin/table", headers=admin_auth(event)).get_data(
        as_text=True
    )
    assert f"{local.day} {MONTHS[local.month - 1]} at {local:%H:%M}</time>" in page
    assert "Times in the event's time zone, Pacific/Auckland." in page


def test_the_kept_list_stays_the_latest_when_the_other_is_newer(client):
    event = create_event(client)
    old = submit(client, event, "Dana Dee", player_id="77").get_json()
    new = submit(client, event, "Dee Dana", decklist=ILLEGAL).get_json()
    keep, other = old["submission"]["id"], new["submission"]["id"]
    assert merge(client, event, keep, other).status_code == 200
    [row] = table(client, event)
    assert row["id"] == keep and row["legal"] and row["version"] == 2
    again = submit(client, event, "Dana Dee", player_id="77", edit_token=old["edit_token"])
    assert again.status_code == 201
    [row] = table(client, event)
    assert row["id"] == again.get_json()["submission"]["id"] and row["version"] == 3
