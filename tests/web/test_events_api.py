"""The events API of the contract ("Events (stored on the server)")."""

from __future__ import annotations

import csv
import io
import time

import pytest
from event_requests import LATER, admin_auth, create_event, submit
from fixture_cards import ST1_TEXT

from deckcheck.openapi import spec


def _assert_error(response, status, code):
    assert response.status_code == status
    body = response.get_json()
    assert set(body) == {"error"} and body["error"]["code"] == code
    assert set(body["error"]) == {"code", "message", "details"}


def test_create_returns_the_contract_shape(client):
    event = create_event(client, date=None)
    assert event["date"] == "2099-12-05" and event["locked"] is False
    assert event["submit_url"] == f"/e/{event['id']}"
    assert event["admin_url"] == f"/e/{event['id']}/admin#{event['admin_token']}"
    assert len(event["admin_token"]) >= 32
    public = client.get(f"/api/v1/events/{event['id']}").get_json()
    assert public["players"] == 0 and "admin_token" not in public and "admin_url" not in public


@pytest.mark.parametrize(
    ("fields", "status", "code"),
    [
        ({"format": "nope"}, 422, "unknown-format"),
        ({"deadline": "tomorrow"}, 422, "invalid-request"),
        ({"deadline": "2099-12-05T09:00:00"}, 422, "invalid-request"),
        ({"name": ""}, 422, "invalid-request"),
    ],
)
def test_create_refuses_bad_events(client, fields, status, code):
    body = {"name": "Cup", "format": "dcg", "deadline": LATER, **fields}
    _assert_error(client.post("/api/v1/events", json=body), status, code)


def test_submit_judges_and_hides_player_ids_from_the_public(client):
    event = create_event(client)
    response = submit(client, event, player_id="0000123456")
    assert response.status_code == 201
    sub = response.get_json()["submission"]
    assert sub["legal"] is True and sub["fingerprint"].startswith("sha256:")
    assert sub["receipt_url"] == f"/e/{event['id']}/r/{sub['id']}"
    assert set(sub) >= {"id", "player", "player_id", "submitted_at", "violations", "warnings"}
    illegal = submit(client, event, "Bob", "4 ST1-03").get_json()["submission"]
    assert illegal["legal"] is False and illegal["violations"][0]["code"] == "deck-size"
    public = client.get(f"/api/v1/events/{event['id']}").get_data(as_text=True)
    assert "0000123456" not in public and '"players":2' in public.replace(" ", "")
    receipt = client.get(sub["receipt_url"]).get_data(as_text=True)
    assert (
        "0000123456" not in receipt
        and sub["fingerprint"] in receipt
        and 'id="receipt-qr"' in receipt
    )


def test_resubmission_replaces_and_the_table_shows_the_latest(client):
    event = create_event(client)
    alice = submit(client, event, "Alice", "4 ST1-03", player_id="7").get_json()["edit_token"]
    again = submit(client, event, "Alice B.", ST1_TEXT, player_id="7", edit_token=alice)
    assert again.status_code == 201 and again.get_json()["edit_token"] == alice
    carol = submit(client, event, "Carol", "4 ST1-03").get_json()["edit_token"]
    assert submit(client, event, "carol", ST1_TEXT, edit_token=carol).status_code == 201
    data = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    rows = data.get_json()["data"]
    assert [(r["player"], r["legal"], r["version"]) for r in rows] == [
        ("Alice B.", True, 2),
        ("carol", True, 2),
    ]
    assert all(r["changed"] is False for r in rows)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/submissions"),
        ("get", "/submissions.csv"),
        ("post", "/lock"),
        ("post", "/unlock"),
        ("delete", "/submissions/x"),
        ("delete", ""),
        ("patch", ""),
    ],
)
def test_admin_calls_need_the_token(client, method, path):
    event = create_event(client)
    url = f"/api/v1/events/{event['id']}{path}"
    _assert_error(getattr(client, method)(url), 401, "token-required")
    # One character changed, whatever the token ends with (ending in "x" made it right).
    token = event["admin_token"]
    wrong = {"Authorization": "Bearer " + token[:-1] + ("y" if token[-1] == "x" else "x")}
    _assert_error(getattr(client, method)(url, headers=wrong), 403, "token-wrong")
    other = create_event(client)
    _assert_error(getattr(client, method)(url, headers=admin_auth(other)), 403, "token-wrong")
    _assert_error(
        getattr(client, method)(f"/api/v1/events/nope{path}", headers=admin_auth(event)),
        404,
        "event-not-found",
    )


def test_lock_unlock_and_the_deadline(client):
    event = create_event(client)
    locked = client.post(f"/api/v1/events/{event['id']}/lock", headers=admin_auth(event))
    assert locked.get_json()["locked"] is True
    _assert_error(submit(client, event), 409, "event-locked")
    client.post(f"/api/v1/events/{event['id']}/unlock", headers=admin_auth(event))
    assert submit(client, event).status_code == 201
    moved = client.patch(
        f"/api/v1/events/{event['id']}",
        json={"deadline": "2000-01-01T00:00:00Z"},
        headers=admin_auth(event),
    )
    assert moved.get_json()["open"] is False
    _assert_error(submit(client, event, "Late"), 409, "event-locked")


def test_drop_and_delete(client):
    event = create_event(client)
    sid = submit(client, event).get_json()["submission"]["id"]
    base = f"/api/v1/events/{event['id']}"
    assert client.delete(f"{base}/submissions/{sid}", headers=admin_auth(event)).status_code == 204
    _assert_error(
        client.delete(f"{base}/submissions/{sid}", headers=admin_auth(event)),
        404,
        "submission-not-found",
    )
    assert client.get(base).get_json()["players"] == 0
    assert client.delete(base, headers=admin_auth(event)).status_code == 204
    _assert_error(client.get(base), 404, "event-not-found")
    _assert_error(submit(client, event), 404, "event-not-found")


def test_rate_limit_per_event_and_address(app, client):
    app.config["EVENTS_ADDRESS_LIMIT"] = (3, 60)
    event = create_event(client)
    for n in range(3):
        assert submit(client, event, f"P{n}").status_code == 201
    _assert_error(submit(client, event, "P9"), 429, "too-many-submissions")
    other = create_event(client)
    assert submit(client, other, "P9").status_code == 201
    elsewhere = client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": "P9", "decklist": ST1_TEXT},
        environ_base={"REMOTE_ADDR": "10.0.0.9"},
    )
    assert elsewhere.status_code == 201


def test_bad_submissions_are_4xx(client):
    event = create_event(client)
    url = f"/api/v1/events/{event['id']}/submissions"
    _assert_error(
        client.post(url, data="{", content_type="application/json"), 400, "malformed-json"
    )
    _assert_error(client.post(url, json={"player": "A"}), 422, "invalid-request")
    _assert_error(client.post(url, json={"decklist": "x"}), 422, "invalid-request")
    _assert_error(submit(client, event, "A", "4 ST1-03\n" * 1001), 422, "decklist-too-long")
    _assert_error(submit(client, event, "A", "x" * (1024 * 1024 + 10)), 413, "body-too-large")
    structured = client.post(
        url, json={"player": "S", "deck": {"main": [{"card": "ST1-03", "count": 4}]}}
    )
    assert structured.status_code == 201


def test_csv_neutralises_formulas(client):
    event = create_event(client)
    submit(client, event, '=HYPERLINK("http://x")', "4 ST1-03", player_id="+1")
    submit(client, event, "@Bob", "4 ST1-03", player_id="-2")
    submit(client, event, "\tTab", "4 ST1-03")
    text = client.get(
        f"/api/v1/events/{event['id']}/submissions.csv", headers=admin_auth(event)
    ).get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["player", "player_id"]
    cells = [cell for row in rows[1:] for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert '\'=HYPERLINK("http://x")' in cells and "'+1" in cells and "'@Bob" in cells


def test_a_ban_after_submission_shows_as_changed(app, client, tmp_path):
    formats = tmp_path / "formats"
    house = 'id = "house"\nname = "House"\nextends = "dcg"\n'
    (formats / "house.toml").write_text(house)
    event = create_event(client, format="house")
    assert submit(client, event, "Alice").get_json()["submission"]["legal"] is True
    (formats / "house.toml").write_text(house + 'banned = ["ST1-03"]\n')
    time.sleep(1.1)  # the format folder is looked at again once a second
    [row] = client.get(
        f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event)
    ).get_json()["data"]
    assert row["legal"] is False and row["changed"] is True and row["submitted_legal"] is True
    assert [v["code"] for v in row["new_violations"]] == ["banned"]
    assert "ST1-03" in row["new_violations"][0]["cards"]


def test_every_events_route_is_in_the_openapi_document(app):
    paths = spec()["paths"]
    assert set(paths["/events/{event_id}"]) >= {"get", "patch", "delete"}
    assert "post" in paths["/events"] and "201" in paths["/events"]["post"]["responses"]
    assert set(paths["/events/{event_id}/submissions"]) >= {"get", "post"}
