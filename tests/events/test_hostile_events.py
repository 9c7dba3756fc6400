"""The attacks on events (issue 22), each against the real app on a real SQLite file and
a real PostgreSQL: taking over another player's list, coming back after a drop, blank
and invisible names, inputs one database stores and the other refuses, floods, limits
that two requests at once could pass, dates out of range, formulas in the CSV."""

from __future__ import annotations

import csv
import io
import threading

import pytest
from event_requests import LATER, admin_auth, create_event, submit
from fixture_cards import ST1_TEXT

from deckcheck import create_app


@pytest.fixture
def make_app(events_database, tmp_path, cards_db):
    made = []

    def make(**config):
        (tmp_path / "formats").mkdir(exist_ok=True)
        app = create_app(
            {
                "TESTING": True,
                "DATABASE": cards_db,
                "FORMATS_DIR": str(tmp_path / "formats"),
                "EVENTS_DATABASE": events_database,
                "SECRET_KEY": "test",
                **config,
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        store = app.extensions.get("deckcheck.events")
        if store is not None:
            store.close()


@pytest.fixture
def client(make_app):
    return make_app().test_client()


def _error(response, status, code):
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    body = response.get_json()
    assert body["error"]["code"] == code
    return body["error"]


def _table(client, event) -> list[dict]:
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    assert response.status_code == 200
    return response.get_json()["data"]


# -- a list belongs to whoever holds its edit token ---------------------------------


@pytest.mark.parametrize(
    "impostor",
    [
        {"player": "Carol"},
        {"player": "  CAROL "},
        {"player": "Car\u200bol"},
        {"player": "\uff23\uff41\uff52\uff4f\uff4c"},  # full-width letters
        {"player": "\u202ecarol\u202c"},
        {"player": "Mallory", "player_id": "0042"},
        {"player": "Mallory", "player_id": " 0042\u200d"},
    ],
)
def test_nobody_else_replaces_a_players_list(client, impostor):
    event = create_event(client)
    first = submit(client, event, "Carol", player_id="0042" if "player_id" in impostor else "")
    assert first.status_code == 201
    token = first.get_json()["edit_token"]
    assert len(token) >= 32
    error = _error(submit(client, event, decklist="4 ST1-03", **impostor), 409, "player-exists")
    assert "edit token" in error["message"] and "organizer" in error["message"]
    [row] = _table(client, event)
    assert row["id"] == first.get_json()["submission"]["id"] and row["version"] == 1
    # The holder of the token replaces it, under any spelling of the same name.
    again = submit(client, event, decklist="4 ST1-03", edit_token=token, **impostor)
    assert again.status_code == 201 and again.get_json()["edit_token"] == token
    [row] = _table(client, event)
    assert row["version"] == 2 and row["legal"] is False


def test_the_organizer_replaces_a_list_and_gets_a_new_token(client):
    event = create_event(client)
    token = submit(client, event, "Dan").get_json()["edit_token"]
    other = create_event(client)
    wrong = client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": "Dan", "decklist": "4 ST1-03"},
        headers=admin_auth(other),
    )
    _error(wrong, 403, "token-wrong")
    replaced = client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": "Dan", "decklist": "4 ST1-03"},
        headers=admin_auth(event),
    )
    assert replaced.status_code == 201
    new = replaced.get_json()["edit_token"]
    assert new != token
    _error(submit(client, event, "Dan", edit_token=token), 409, "player-exists")
    assert submit(client, event, "Dan", edit_token=new).status_code == 201


def test_a_dropped_player_stays_dropped_until_the_organizer_restores_them(client):
    event = create_event(client)
    sent = submit(client, event, "Erin").get_json()
    sid, token = sent["submission"]["id"], sent["edit_token"]
    base = f"/api/v1/events/{event['id']}/submissions"
    assert client.delete(f"{base}/{sid}", headers=admin_auth(event)).status_code == 204
    for attempt in (
        submit(client, event, "Erin"),
        submit(client, event, " ERIN ", edit_token=token),
        client.post(base, json={"player": "Erin", "decklist": ST1_TEXT}, headers=admin_auth(event)),
    ):
        assert "organizer" in _error(attempt, 409, "player-dropped")["message"]
    assert _table(client, event) == []
    _error(client.post(f"{base}/{sid}/restore"), 401, "token-required")
    _error(
        client.post(f"{base}/nope/restore", headers=admin_auth(event)), 404, "submission-not-found"
    )
    restored = client.post(f"{base}/{sid}/restore", headers=admin_auth(event))
    assert restored.status_code == 200 and restored.get_json()["submission"]["id"] == sid
    assert [r["id"] for r in _table(client, event)] == [sid]
    _error(
        client.post(f"{base}/{sid}/restore", headers=admin_auth(event)), 404, "submission-not-found"
    )
    assert submit(client, event, "Erin", edit_token=token).status_code == 201


def test_the_admin_page_lists_dropped_players_with_a_restore_button(client):
    event = create_event(client)
    sid = submit(client, event, "Fay").get_json()["submission"]["id"]
    client.delete(f"/api/v1/events/{event['id']}/submissions/{sid}", headers=admin_auth(event))
    table = client.get(f"/e/{event['id']}/admin/table", headers=admin_auth(event))
    html = table.get_data(as_text=True)
    assert (
        f'data-restore="{sid}"' in html and "Fay" in html and "<strong>0</strong> players" in html
    )


def test_the_receipt_shows_the_private_link_only_to_the_browser_that_sent_the_list(make_app):
    app = make_app()
    player, stranger = app.test_client(), app.test_client()
    event = create_event(player)
    sent = player.post(
        f"/e/{event['id']}", data={"player": "Gus", "decklist": ST1_TEXT, "anyway": "1"}
    )
    assert sent.status_code == 303
    receipt = player.get(sent.headers["Location"])
    html = receipt.get_data(as_text=True)
    link = html.split('id="private-link" data-whole>', 1)[1].split("<", 1)[0]
    assert link.startswith(f"/e/{event['id']}#edit=") and 'id="private-qr"' in html
    assert receipt.headers["Cache-Control"] == "no-store"
    assert "private-link" not in stranger.get(sent.headers["Location"]).get_data(as_text=True)
    # The link's token replaces the list through the form (events.js copies it there).
    token = link.split("#edit=", 1)[1]
    _error(
        stranger.post(
            f"/e/{event['id']}",
            data={"player": "gus", "decklist": "4 ST1-03"},
            headers={"Accept": "application/json"},
        ),
        409,
        "player-exists",
    )
    again = stranger.post(
        f"/e/{event['id']}",
        data={"player": "gus", "decklist": "4 ST1-03", "edit_token": token, "anyway": "1"},
    )
    assert again.status_code == 303


def test_tokens_are_stored_hashed_and_never_logged(client, caplog, make_app):
    caplog.set_level("DEBUG")
    event = create_event(client)
    token = submit(client, event, "Hal").get_json()["edit_token"]
    submit(client, event, "Hal", edit_token=token)
    from deckcheck.events.store import EventStore

    store = EventStore(client.application.config["EVENTS_DATABASE"])
    try:
        rows = store.current(event["id"]) + [store.event(event["id"])]
    finally:
        store.close()
    stored = repr(rows)
    assert token not in stored and event["admin_token"] not in stored
    assert token not in caplog.text and event["admin_token"] not in caplog.text


# -- names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("player", ""),
        ("player", "   "),
        ("player", "\u200b\u200c\u200d\ufeff"),
        ("player", "\u202e\u2066\u2069"),
        ("player", "A\x00B"),
        ("player", "bell\x07"),
        ("player", "del\x7f"),
        ("player", "c1\x9b"),
        ("player", "x" * 101),
        ("player", "ß" * 101),
        ("player", 42),
        ("player_id", "0\x00042"),
        ("player_id", "9" * 101),
        ("player_id", "\u200b"),  # given, but nothing visible: not "no id" (a review)
        ("player_id", " \u2066\u2069 "),
    ],
)
def test_blank_invisible_control_and_long_names_are_422(client, field, value):
    event = create_event(client)
    body = {"player": "Ivy", "player_id": "", "decklist": ST1_TEXT, field: value}
    response = client.post(f"/api/v1/events/{event['id']}/submissions", json=body)
    assert field in _error(response, 422, "invalid-request")["details"]["fields"]


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_player_id_left_blank_is_no_id(client, blank):
    event = create_event(client)
    body = {"player": "Ivy", "player_id": blank, "decklist": ST1_TEXT}
    response = client.post(f"/api/v1/events/{event['id']}/submissions", json=body)
    assert response.status_code == 201 and response.get_json()["submission"]["player_id"] == ""


def test_names_are_stored_normalised_and_the_longest_ones_fit_both_databases(client):
    event = create_event(client, name="ß" * 200)
    assert event["name"] == "ß" * 200
    sent = submit(client, event, "  Jo\u200b  \t Ann\u00a0Lee ", player_id="ß" * 100)
    assert sent.status_code == 201
    assert sent.get_json()["submission"]["player"] == "Jo Ann Lee"
    longest = submit(client, event, "ß" * 100)  # folds to 200 characters
    assert longest.status_code == 201
    # Lengths count after NFKC: the ligature "ﬃ" is three letters.
    _error(submit(client, event, "\ufb03" * 34), 422, "invalid-request")
    assert submit(client, event, "\ufb03" * 33).status_code == 201
    assert sorted(r["player"] for r in _table(client, event))[0] == "Jo Ann Lee"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", ""),
        ("name", "\u200b"),
        ("name", "Cup\x00"),
        ("name", "x" * 201),
        ("description", "notes\x00"),
    ],
)
def test_bad_event_names_are_422(client, field, value):
    body = {"name": "Cup", "format": "dcg", "deadline": LATER, field: value}
    response = client.post("/api/v1/events", json=body)
    assert field in _error(response, 422, "invalid-request")["details"]["fields"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/events/%00",
        "/api/v1/events/a%00b/submissions",
        "/e/%00",
        "/e/x%00/admin",
        "/api/v1/events/{id}/submissions/%00",
        "/e/{id}/r/%00",
        "/e/{id}/r/%00/qr.svg",
    ],
)
def test_a_nul_in_an_address_is_a_404_on_both_databases(client, path):
    event = create_event(client)
    url = path.format(id=event["id"])
    method = client.delete if url.endswith("/submissions/%00") else client.get
    response = method(url, headers=admin_auth(event))
    assert response.status_code == 404


# -- dates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"deadline": "9999-12-31T23:00:00-05:00"}, "deadline"),
        ({"deadline": "9999-12-31T23:00:00+05:00"}, "deadline"),
        ({"deadline": "3000-01-01T00:00:00Z"}, "deadline"),
        ({"deadline": "1969-12-31T23:59:59Z"}, "deadline"),
        ({"deadline": "2999-12-31T23:00:00-05:00"}, "deadline"),  # 3000 in UTC
        ({"deadline": "0001-01-01T00:00:00+05:00"}, "deadline"),
        ({"deadline": "2026-12-05T09:00:00\x00Z"}, "deadline"),
        ({"date": "3000-01-01"}, "date"),
        ({"date": "1969-12-31"}, "date"),
    ],
)
def test_dates_outside_1970_2999_are_422(client, fields, field):
    body = {"name": "Cup", "format": "dcg", "deadline": LATER, **fields}
    response = client.post("/api/v1/events", json=body)
    assert field in _error(response, 422, "invalid-request")["details"]["fields"]


def test_moving_a_deadline_out_of_range_is_422(client):
    event = create_event(client)
    response = client.patch(
        f"/api/v1/events/{event['id']}",
        json={"deadline": "9999-12-31T23:00:00-05:00"},
        headers=admin_auth(event),
    )
    _error(response, 422, "invalid-request")


# -- floods -----------------------------------------------------------------------


def test_a_list_over_64_kb_is_413(client):
    event = create_event(client)
    big = ("4 ST1-03\n" * 8000)[: 64 * 1024 + 1]
    error = _error(submit(client, event, "Kim", big), 413, "list-too-large")
    assert "64 KB" in error["message"]
    wide = "4 ST1-03 é\n" * 6000  # 66,000 bytes in UTF-8, 60,000 characters
    _error(submit(client, event, "Kim", wide), 413, "list-too-large")
    deck = {"main": [{"card": "ST1-03" + "x" * 60, "count": 1}] * 1000}
    response = client.post(
        f"/api/v1/events/{event['id']}/submissions", json={"player": "Kim", "deck": deck}
    )
    _error(response, 413, "list-too-large")
    assert submit(client, event, "Kim", ST1_TEXT + "\n" * (60 * 1024)).status_code == 201
    form = client.post(f"/e/{event['id']}", data={"player": "Lou", "decklist": big})
    assert form.status_code == 413


def test_an_event_takes_at_most_its_players(make_app):
    client = make_app(EVENTS_MAX_PLAYERS=3).test_client()
    event = create_event(client)
    tokens = [submit(client, event, f"P{n}").get_json()["edit_token"] for n in range(3)]
    assert "3" in _error(submit(client, event, "P3"), 409, "event-full")["message"]
    assert submit(client, event, "p0", edit_token=tokens[0]).status_code == 201


def test_the_address_limit_holds_for_40_simultaneous_requests(make_app):
    # Forty players at once from one address, whose ceiling is 20: the per-address
    # bucket is checked and counted in one step (the per-player limit is per player).
    app = make_app(EVENTS_ADDRESS_LIMIT=(20, 60))
    event = create_event(app.test_client())
    barrier = threading.Barrier(40)
    statuses: list[int] = []

    def send(n: int) -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(submit(client, event, f"Player {n}").status_code)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] * 20 + [429] * 20


def test_event_creation_is_limited_per_address(make_app):
    client = make_app(EVENTS_CREATE_LIMIT=(3, 3600)).test_client()
    for _ in range(3):
        create_event(client)
    body = {"name": "Cup", "format": "dcg", "deadline": LATER}
    _error(client.post("/api/v1/events", json=body), 429, "too-many-events")
    elsewhere = client.post("/api/v1/events", json=body, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert elsewhere.status_code == 201


def test_a_create_key_is_needed_when_set(make_app):
    client = make_app(EVENTS_CREATE_KEY="open sesame").test_client()
    body = {"name": "Cup", "format": "dcg", "deadline": LATER}
    _error(client.post("/api/v1/events", json=body), 401, "key-required")
    wrong = {"Authorization": "Bearer open sesam"}
    _error(client.post("/api/v1/events", json=body, headers=wrong), 403, "key-wrong")
    right = {"Authorization": "Bearer open sesame"}
    assert client.post("/api/v1/events", json=body, headers=right).status_code == 201
    form = {"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00", "offset": "Z"}
    assert client.post("/e/new", data=form).status_code == 401
    assert 'name="key"' in client.get("/e/new").get_data(as_text=True)
    created = client.post("/e/new", data={**form, "key": "open sesame"}, follow_redirects=True)
    assert created.status_code == 200 and 'id="admin-link"' in created.get_data(as_text=True)


@pytest.mark.parametrize("proxies", [0, 1])
def test_only_trusted_proxy_hops_set_the_address(make_app, proxies):
    client = make_app(TRUSTED_PROXIES=proxies, EVENTS_ADDRESS_LIMIT=(1, 60)).test_client()
    event = create_event(client)

    def send(player: str, forwarded: str) -> int:
        return client.post(
            f"/api/v1/events/{event['id']}/submissions",
            json={"player": player, "decklist": ST1_TEXT},
            headers={"X-Forwarded-For": forwarded, "X-Real-IP": forwarded},
        ).status_code

    assert send("A", "203.0.113.1") == 201
    # Behind a proxy, each player is their own address; without one, the header is a
    # lie anyone can tell, and every request is the socket's address.
    assert send("B", "203.0.113.2") == (201 if proxies else 429)
    # A client cannot pick its address by adding hops of its own in front.
    assert send("C", "203.0.113.2, 203.0.113.1") == 429


def test_the_create_limit_uses_the_trusted_address(make_app):
    client = make_app(TRUSTED_PROXIES=1, EVENTS_CREATE_LIMIT=(1, 3600)).test_client()
    body = {"name": "Cup", "format": "dcg", "deadline": LATER}
    one = {"X-Forwarded-For": "198.51.100.1"}
    assert client.post("/api/v1/events", json=body, headers=one).status_code == 201
    _error(client.post("/api/v1/events", json=body, headers=one), 429, "too-many-events")
    two = {"X-Forwarded-For": "198.51.100.2"}
    assert client.post("/api/v1/events", json=body, headers=two).status_code == 201


# -- the CSV ----------------------------------------------------------------------


def test_every_csv_cell_is_quoted_and_formulas_are_neutralised(client):
    event = create_event(client)
    hostile = ["Bob;=cmd|' /C calc'!A0", '=HYPERLINK("x")', "+1", "@SUM(A1)", "-2+3"]
    for n, name in enumerate(hostile):
        assert submit(client, event, name, player_id=f"-{n}").status_code == 201
    text = client.get(
        f"/api/v1/events/{event['id']}/submissions.csv", headers=admin_auth(event)
    ).get_data(as_text=True)
    # Records end in CRLF; the decklist column holds the list's own line breaks (LF).
    records = [record for record in text.split("\r\n") if record]
    assert all(record.startswith('"') and record.endswith('"') for record in records)
    rows = list(csv.reader(io.StringIO(text)))
    assert all(len(row) == 11 for row in rows) and rows[0][-1] == "decklist"
    cells = [cell for row in rows for cell in row]
    assert "\"Bob;=cmd|' /C calc'!A0\"" in text
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert {'\'=HYPERLINK("x")', "'+1", "'@SUM(A1)", "'-2+3", "'-0"} <= set(cells)
    # The same for the quick /event page's CSV.
    page = client.post(
        "/event",
        data={"event": "Cup", "format": "dcg", "pasted": "=== Bob;=cmd|x (-1) ===\n4 ST1-03\n"},
    ).get_data(as_text=True)
    payload = page.split('name="payload" value="', 1)[1].split('"', 1)[0]
    quick = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    assert '"Bob;=cmd|x","\'-1"' in quick


def test_the_largest_lists_keep_the_table_small(client):
    """A list of 1,000 lines naming no card is a 480 KB verdict: the table shows 30
    problems of each kind and how many more, stored and read compact."""
    event = create_event(client)
    lines = "".join(f"1 Zorblax Nonesuch Variant {n:06d}\n" for n in range(1000))
    sent = submit(client, event, "Max", lines)
    assert sent.status_code == 201
    told = len(sent.get_json()["submission"]["violations"])  # 1,000 unknown + deck size
    assert told > 1000
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    assert len(response.data) < 40_000
    [row] = response.get_json()["data"]
    assert len(row["violations"]) == 30 and row["more"]["violations"] == told - 30
    assert len(row["unresolved"]) == 30 and row["more"]["unresolved"] == 970
    text = client.get(
        f"/api/v1/events/{event['id']}/submissions.csv", headers=admin_auth(event)
    ).get_data(as_text=True)
    # Capped problems; the decklist column holds the list itself, whole.
    assert f"... and {told - 30} more" in text and len(text) - len(lines) < 20_000
    assert lines.rstrip("\n") in text
    sheets = client.post(f"/e/{event['id']}/admin/sheets", data={"token": event["admin_token"]})
    assert f"{told - 30} more problems" in sheets.get_data(as_text=True)
    store = client.application.extensions["deckcheck.events"]
    [stored] = store.current(event["id"])
    assert len(stored["verdict"]) < 60_000 and stored["verdict"].startswith("z:")


def test_a_held_lock_is_a_503_within_2_s_not_a_hang(client):
    """Another session holds the event's lock (a stuck writer, a dead worker's session
    not yet noticed): the submission is answered 503 events-busy in under 2 s."""
    import time

    from sqlalchemy import text

    event = create_event(client)
    store = client.application.extensions["deckcheck.events"]
    with store._writer.connect() as held:
        # A writer's transaction (BEGIN IMMEDIATE on SQLite), holding the event's row.
        held.execute(text("UPDATE events SET locked = locked WHERE id = :id"), {"id": event["id"]})
        started = time.monotonic()
        response = submit(client, event, "Nia")
        waited = time.monotonic() - started
        held.rollback()
    error = _error(response, 503, "events-busy")
    assert "send it again" in error["message"] and response.headers["Retry-After"] == "1"
    assert waited < 2.0
    assert submit(client, event, "Nia").status_code == 201
