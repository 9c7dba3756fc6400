"""The events pages (create, submit, receipt, organizer table, sheets, deck check),
the quick /event page's signed hidden field, and `flask events backup`."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest
from fixture_cards import ST1_TEXT


def _create(client, deadline="2099-12-05T09:00"):
    page = client.post(
        "/e/new",
        data={"name": "Saturday Cup", "format": "dcg", "deadline": deadline, "offset": "+01:00",
              "date": "2021-01-01"},
        follow_redirects=True,
    ).get_data(as_text=True)  # fmt: skip
    event_id, token = re.search(r'id="admin-link" href="/e/([^/]+)/admin#([^"]+)"', page).groups()
    return event_id, token


def _send(client, event_id, player, text=ST1_TEXT, **extra):
    """The form sent; `anyway` by default, as these lists are not legal (ST1 alone)."""
    data = {"player": player, "decklist": text, "anyway": "1", **extra}
    return client.post(f"/e/{event_id}", data={k: v for k, v in data.items() if v is not None})


def test_create_submit_and_receipt(client):
    event_id, token = _create(client)
    event = client.get(f"/api/v1/events/{event_id}").get_json()
    assert event["deadline"] == "2099-12-05T09:00:00+01:00" and event["date"] == "2021-01-01"
    form = client.get(f"/e/{event_id}").get_data(as_text=True)
    assert 'datetime="2099-12-05T08:00:00' in form and "08:00 UTC" in form
    response = _send(client, event_id, "Alice", player_id="0042")
    assert response.status_code == 303
    receipt = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "✔ Legal" in receipt and "sha256:" in receipt and "qr.svg" in receipt
    assert "0042" not in receipt and 'id="resubmit"' in receipt
    illegal = client.get(_send(client, event_id, "Bob", "4 ST1-03").headers["Location"])
    assert "must have exactly 50 cards" in illegal.get_data(as_text=True)


def test_locked_event_refuses_the_form(client):
    event_id, token = _create(client)
    client.post(f"/api/v1/events/{event_id}/lock", headers={"Authorization": "Bearer " + token})
    assert 'id="closed"' in client.get(f"/e/{event_id}").get_data(as_text=True)
    late = _send(client, event_id, "Late")
    assert late.status_code == 409 and "no longer takes lists" in late.get_data(as_text=True)


def test_admin_table_sheets_and_deck_check_need_the_token(client):
    event_id, token = _create(client)
    first = _send(client, event_id, "Zoe").headers["Location"].rsplit("/", 1)[-1]
    _send(client, event_id, "Adam", "4 ST1-03")
    assert client.get(f"/e/{event_id}/admin/table").status_code == 401
    bad = {"Authorization": "Bearer nope"}
    assert client.get(f"/e/{event_id}/admin/table", headers=bad).status_code == 403
    assert client.post(f"/e/{event_id}/admin/sheets", data={"token": "nope"}).status_code == 403
    table = client.get(
        f"/e/{event_id}/admin/table", headers={"Authorization": "Bearer " + token}
    ).get_data(as_text=True)
    assert table.count('data-legal="yes"') == 1 and table.count('data-legal="no"') == 1
    sheets = client.post(f"/e/{event_id}/admin/sheets", data={"token": token}).get_data(
        as_text=True
    )
    assert sheets.count('<article class="sheet">') == 2
    assert sheets.index('class="player">Adam') < sheets.index('class="player">Zoe')
    assert "must have exactly 50 cards" in sheets and "deck-size" not in sheets
    assert sheets.count("cards in the main deck") == 2 and "<tfoot" not in sheets
    presented = ST1_TEXT.replace("4 ST1-03", "3 ST1-03\n1 ST1-02")
    check = client.post(
        f"/e/{event_id}/admin/deck-check",
        data={"token": token, "submission": first, "presented": presented},
    ).get_data(as_text=True)
    assert "The decks differ" in check and "-1" in check and "+1" in check
    csv = client.post(f"/e/{event_id}/admin/submissions.csv", data={"token": token})
    assert csv.mimetype == "text/csv" and "Zoe" in csv.get_data(as_text=True)


def test_admin_page_holds_no_token_and_no_inline_script(client):
    event_id, token = _create(client)
    page = client.get(f"/e/{event_id}/admin").get_data(as_text=True)
    assert token not in page
    assert re.search(r"<script(?![^>]*\bsrc=)", page) is None


def _quick(client, pasted):
    page = client.post(
        "/event", data={"event": "Cup", "format": "dcg", "date": "2021-01-01", "pasted": pasted}
    ).get_data(as_text=True)
    return re.search(r'name="payload" value="([^"]+)"', page).group(1)


def test_quick_event_refuses_a_tampered_or_oversized_field(client):
    payload = _quick(client, f"=== Zoe ===\n{ST1_TEXT}\n")
    tampered = payload[:-3] + ("AAA" if not payload.endswith("AAA") else "BBB")
    for bad in (tampered, "x" * 10, "!!!", payload + "." + payload):
        response = client.post("/event/sheets", data={"payload": bad})
        assert response.status_code == 400, bad[:40]
        assert "changed or damaged" in response.get_data(as_text=True)
    big = client.post("/event/results.csv", data={"payload": "a" * (1024 * 1024 + 1)})
    assert big.status_code in (400, 413)


def test_quick_event_round_trips_a_2300_player_event(client):
    pasted = "".join(f"=== Player {n} ({n}) ===\n4 ST1-03\n" for n in range(2300))
    payload = _quick(client, pasted)
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    assert len(csv.splitlines()) == 2301 and '"Player 2299","2299","not legal"' in csv


def test_quick_event_csv_neutralises_formulas(client):
    payload = _quick(client, "=== @Bob (-1) ===\n4 ST1-03\n")
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    assert '\n"\'@Bob","\'-1","not legal"' in csv


def test_backup_command(app, client, tmp_path):
    event_id, _ = _create(client)
    _send(client, event_id, "Alice")
    target = tmp_path / "backup.db"
    result = app.test_cli_runner().invoke(args=["events", "backup", str(target)])
    assert result.exit_code == 0, result.output
    copy = sqlite3.connect(target)
    assert copy.execute("SELECT player FROM submissions").fetchall() == [("Alice",)]
    copy.close()


def test_lines_that_named_no_card_show_with_their_counts(client):
    event_id, token = _create(client)
    response = _send(client, event_id, "Una", ST1_TEXT + "\n3 Nosuchmon XYZ-999\n")
    receipt = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Lines that named no card" in receipt and "×3" in receipt
    sheets = client.post(f"/e/{event_id}/admin/sheets", data={"token": token})
    assert "Nosuchmon" in sheets.get_data(as_text=True)


def test_a_quick_event_of_more_lists_than_one_check_reads_is_refused(client, monkeypatch):
    """Never cut short without a word: the roster readers once kept the first 10,000
    lists and dropped the rest; more than that is a 422 on every quick-event page."""
    from rules import roster

    monkeypatch.setattr(roster, "MAX_SUBMISSIONS", 5)
    pasted = "\n".join(f"=== P{n} ===\n4 ST1-03" for n in range(6))
    csv = "player,decklist\n" + "\n".join(f"P{n},4 ST1-03" for n in range(6))
    for path in ("/event", "/event/sheets", "/event/results.csv"):
        response = client.post(path, data={"format": "dcg", "pasted": pasted})
        assert response.status_code == 422
        assert "at most 5" in response.get_data(as_text=True)
    upload = {"format": "dcg", "csv": (io.BytesIO(csv.encode()), "players.csv")}
    assert client.post("/event", data=upload, content_type="multipart/form-data").status_code == 422
    five = "\n".join(f"=== P{n} ===\n4 ST1-03" for n in range(5))
    assert client.post("/event", data={"format": "dcg", "pasted": five}).status_code == 200


def test_a_quick_event_checks_within_its_work_and_says_what_it_left(
    client, costly_checks, monkeypatch
):
    """Found by an attack run: 8,000 players of unknown names took 5 s. The page checks
    lists until its budget of work is done and shows the rest "not checked", naming them:
    the same lists however slow each check is (issue 40: here 50 ms each)."""
    from deckcheck import budgets, quick_event

    monkeypatch.setattr(quick_event, "CHECK_WORK", 200)  # 34 one-line lists of 6 units
    assert budgets.deck_work(1) == 6
    pasted = "\n".join(f"=== Player {n} ===\n4 ST1-03" for n in range(60))
    page = client.post("/event", data={"format": "dcg", "pasted": pasted}).get_data(as_text=True)
    assert _not_checked_on_the_page(page) == {f"Player {n}" for n in range(34, 60)}


def _not_checked_on_the_page(page: str) -> set[str]:
    rows = re.findall(r"<tr.*?</tr>", page, re.S)
    return {
        re.search(r"Player \d+", row).group(0)
        for row in rows
        if "not checked: this event used up its budget of work" in row
    }


def test_a_quick_events_page_csv_and_sheets_agree_on_what_was_not_checked(client, monkeypatch):
    """Issue 33: the CSV and the sheets checked the lists again with a fresh budget, so
    a quicker (or slower) moment gave another set of lists "not checked". The page
    decides once; its signed field carries the decision to the other two."""
    from deckcheck import quick_event

    monkeypatch.setattr(quick_event, "CHECK_WORK", 200)
    pasted = "\n".join(f"=== Player {n} ===\n4 ST1-03" for n in range(60))
    page = client.post("/event", data={"format": "dcg", "pasted": pasted}).get_data(as_text=True)
    left = _not_checked_on_the_page(page)
    assert 0 < len(left) < 60
    payload = re.search(r'name="payload" value="([^"]+)"', page).group(1)

    monkeypatch.undo()  # the full budget again: a fresh one would check every list
    csv = client.post("/event/results.csv", data={"payload": payload}).get_data(as_text=True)
    csv_left = {line.split(",")[0].strip('"') for line in csv.splitlines() if "not checked" in line}
    assert csv_left == left
    sheets = client.post("/event/sheets", data={"payload": payload}).get_data(as_text=True)
    sheets_left = {
        re.search(r'class="player">(Player \d+)', sheet).group(1)
        for sheet in sheets.split('<article class="sheet">')[1:]
        if "Not checked" in sheet
    }
    assert sheets_left == left
    again = client.post("/event", data={"payload": payload}).get_data(as_text=True)
    assert _not_checked_on_the_page(again) == left

    # Far slower than the page was (beyond RECHECK_FACTOR times its budget): refused,
    # never an answer that differs from the page.
    monkeypatch.setattr(quick_event, "CHECK_WORK", -1)  # spent before the first list
    refused = client.post("/event/results.csv", data={"payload": payload})
    assert refused.status_code == 503 and "Try again" in refused.get_data(as_text=True)


@pytest.mark.parametrize("day", ["2026-02-30", "1900-01-01", "soon"])
def test_an_event_page_with_a_bad_date_is_a_422_saying_why(client, day):
    """An attack run: /e/new answered a bad date 400, where every other page's date is a
    422 bad-date (docs/operations.md), and took years outside 1970-2999."""
    data = {"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00", "date": day}
    response = client.post("/e/new", data=data)
    assert response.status_code == 422
    assert day in response.get_data(as_text=True)


def test_sheets_are_printed_at_most_max_sheets_a_request(client, monkeypatch):
    """An attack run: 10,000 sheets took +87 MB (each holds its deck's report)."""
    from deckcheck import quick_event

    monkeypatch.setattr(quick_event, "MAX_SHEETS", 3)
    pasted = "\n".join(f"=== P{n} ===\n4 ST1-03" for n in range(4))
    response = client.post("/event/sheets", data={"format": "dcg", "pasted": pasted})
    assert response.status_code == 422 and "at most 3" in response.get_data(as_text=True)
    three = "\n".join(f"=== P{n} ===\n4 ST1-03" for n in range(3))
    assert client.post("/event/sheets", data={"format": "dcg", "pasted": three}).status_code == 200
