"""Open decklists and the exports for pairing software (issue 44), on SQLite and
PostgreSQL: lists show once lists close and only as the organizer chose, with names and
never player ids or tokens; players.csv, lists.json (Limitless's shape and deck codes)
and cards.csv hold what the lists hold, every CSV cell quoted and formula-safe."""

from __future__ import annotations

import csv
import io
import json

from event_requests import admin_auth, create_event, submit
from fixture_cards import ST1_TEXT

from rules import deckcode


def _base(event) -> str:
    return f"/api/v1/events/{event['id']}"


def _lock(client, event):
    assert client.post(_base(event) + "/lock", headers=admin_auth(event)).status_code == 200


def _sent(client, event, player, player_id="", text=ST1_TEXT) -> dict:
    response = submit(client, event, player, decklist=text, player_id=player_id)
    assert response.status_code == 201
    return response.get_json()


def test_lists_are_not_published_before_lists_close(both_client):
    client = both_client
    event = create_event(client, publish="all")
    _sent(client, event, "Alice")
    for path in (_base(event) + "/lists", f"/e/{event['id']}/lists"):
        response = client.get(path)
        assert response.status_code == 404
    assert client.get(_base(event) + "/lists").get_json()["error"]["code"] == "not-published"
    past = client.patch(
        _base(event), json={"deadline": "2001-01-01T00:00:00Z"}, headers=admin_auth(event)
    )
    assert past.status_code == 200
    assert client.get(_base(event) + "/lists").status_code == 200


def test_publish_none_never_publishes(both_client):
    client = both_client
    event = create_event(client)
    _sent(client, event, "Alice")
    _lock(client, event)
    assert client.get(_base(event) + "/lists").get_json()["error"]["code"] == "not-published"
    assert client.get(f"/e/{event['id']}/lists").status_code == 404


def test_published_lists_carry_names_never_ids_or_tokens(both_client):
    client = both_client
    event = create_event(client, publish="all")
    alice = _sent(client, event, "Alice", player_id="0000123456")
    _sent(client, event, "Bob", text="4 Koromon ST1-01")
    _lock(client, event)
    response = client.get(_base(event) + "/lists")
    data = response.get_json()["data"]
    assert [d["player"] for d in data] == ["Alice", "Bob"]
    assert all(set(d) == {"player", "legal", "verdict", "deck", "deck_code"} for d in data)
    assert (data[0]["legal"], data[0]["verdict"]) == (True, "legal")
    assert (data[1]["legal"], data[1]["verdict"]) == (False, "illegal")
    page = client.get(f"/e/{event['id']}/lists").get_data(as_text=True)
    for text in (response.get_data(as_text=True), page):
        assert "0000123456" not in text and alice["edit_token"] not in text
        assert alice["submission"]["id"] not in text and event["admin_token"] not in text
    assert "Alice" in page and "Koromon" in page and data[0]["deck_code"] in page
    code = deckcode.decode(data[0]["deck_code"])
    cards = {c["number"]: c["count"] for s in data[0]["deck"].values() for c in s}
    coded = {e.number: e.count for e in (*code.deck, *code.digi_eggs)}
    assert coded == cards and sum(cards.values()) == 54


def test_publish_marked_shows_the_marked_lists_only(both_client):
    client = both_client
    event = create_event(client, publish="marked")
    alice = _sent(client, event, "Alice")["submission"]["id"]
    _sent(client, event, "Bob")
    marked = client.patch(
        f"{_base(event)}/submissions/{alice}", json={"published": True}, headers=admin_auth(event)
    )
    assert marked.get_json()["submission"]["published"] is True
    _lock(client, event)
    assert [d["player"] for d in client.get(_base(event) + "/lists").get_json()["data"]] == [
        "Alice"
    ]


def test_the_submission_page_says_whether_and_when_lists_are_published(both_client):
    client = both_client
    none = client.get(f"/e/{create_event(client)['id']}").get_data(as_text=True)
    assert "does not publish the lists" in none
    shown = create_event(client, publish="all", cutoff="drop")
    page = client.get(f"/e/{shown['id']}").get_data(as_text=True)
    assert "Every list will be published" in page and "once lists close" in page
    assert "dropped from the event" in page


def _csv(response, one_line_records=True) -> list[list[str]]:
    assert response.status_code == 200 and response.mimetype == "text/csv"
    text = response.get_data(as_text=True)
    if one_line_records:  # no cell spans lines: every line is a record, every cell quoted
        assert all(line.startswith('"') and line.endswith('"') for line in text.splitlines())
    return list(csv.reader(io.StringIO(text)))


def test_players_csv(both_client):
    client = both_client
    event = create_event(client)
    _sent(client, event, "=HYPERLINK(1)", player_id="+123")
    _sent(client, event, "Bob", text="4 Koromon ST1-01")
    rows = _csv(client.get(_base(event) + "/players.csv", headers=admin_auth(event)))
    assert rows[0] == ["name", "player_id", "legal", "verdict", "fingerprint", "submitted_at"]
    assert [r[:4] for r in rows[1:]] == [
        ["'=HYPERLINK(1)", "'+123", "legal", "legal"],
        ["Bob", "", "not legal", "illegal"],
    ]
    assert client.get(_base(event) + "/players.csv").status_code == 401


def test_lists_json_in_limitless_shape_with_deck_codes(both_client):
    client = both_client
    event = create_event(client)
    _sent(client, event, "Alice")
    response = client.get(_base(event) + "/lists.json", headers=admin_auth(event))
    assert "attachment" in response.headers["Content-Disposition"]
    (alice,) = json.loads(response.get_data())["data"]
    assert set(alice) == {"player", "limitless", "deck_code"}
    assert set(alice["limitless"]) == {"digimon", "tamer", "option", "egg"}
    assert {"count": 4, "name": "Koromon", "set": "ST1", "number": "01"} in alice["limitless"][
        "egg"
    ]
    total = sum(e["count"] for kind in alice["limitless"].values() for e in kind)
    code = deckcode.decode(alice["deck_code"])
    assert total == sum(e.count for e in (*code.deck, *code.digi_eggs)) == 54
    assert client.get(_base(event) + "/lists.json").status_code == 401


def test_cards_csv_one_line_per_card_and_submissions_csv_as_before(both_client):
    client = both_client
    event = create_event(client)
    _sent(client, event, "-Alice")
    rows = _csv(client.get(_base(event) + "/cards.csv", headers=admin_auth(event)))
    assert rows[0] == ["player", "section", "number", "name", "count"]
    assert ["'-Alice", "eggs", "ST1-01", "Koromon", "4"] in rows
    assert sum(int(r[4]) for r in rows[1:]) == 54
    old = _csv(client.get(_base(event) + "/submissions.csv", headers=admin_auth(event)), False)
    assert old[0][:3] == ["player", "player_id", "submitted_at"] and old[0][-1] == "decklist"


def test_the_exports_from_the_organizers_page(both_client):
    client = both_client
    event = create_event(client)
    _sent(client, event, "Alice")
    token = {"token": event["admin_token"]}
    for name in ("players.csv", "cards.csv", "lists.json"):
        response = client.post(f"/e/{event['id']}/admin/export/{name}", data=token)
        assert response.status_code == 200 and b"Alice" in response.get_data()
    assert client.post(f"/e/{event['id']}/admin/export/x.csv", data=token).status_code == 404
    assert client.post(f"/e/{event['id']}/admin/export/cards.csv").status_code == 401
