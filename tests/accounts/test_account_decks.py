"""The account's decks elsewhere: what a collection can build over them (no `decks` sent),
and /decks rendering them with their three-way verdict."""

from __future__ import annotations

from accounts.helpers import register
from fixture_cards import ST1_TEXT


def collection(client, cards: str) -> str:
    made = client.post("/api/v1/collections", json={"name": "Binder", "cards": cards})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["collection"]["id"]


def test_buildable_without_decks_uses_the_accounts_decks(app, client):
    register(client)
    ids = {}
    for name, text in (("Starter", ST1_TEXT), ("Small", "4 ST1-01\n2 ST1-03")):
        saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": text, "name": name})
        ids[name] = saved.get_json()["deck"]["id"]
    # A token deck of no account is not the account's.
    stranger = app.test_client().post(
        "/api/v1/decks", json={"format": "dcg", "decklist": "4 P-009"}
    )
    assert stranger.status_code == 201
    cid = collection(client, "ST1-01,4\nST1-03,2")
    for body in ({}, None):
        answer = client.post(f"/api/v1/collections/{cid}/buildable", json=body)
        assert answer.status_code == 200, answer.get_json()
        data = answer.get_json()["data"]
        assert [(d["name"], d["complete"]) for d in data] == [("Small", True), ("Starter", False)]
        assert {d["deck"] for d in data} == set(ids.values())
    # Sent decks are still what is asked about.
    only = client.post(f"/api/v1/collections/{cid}/buildable", json={"decks": [ids["Small"]]})
    assert [d["name"] for d in only.get_json()["data"]] == ["Small"]


def test_buildable_without_decks_or_session_says_what_to_send(app):
    anonymous = app.test_client()
    cid = collection(anonymous, "ST1-01,4")
    for body in ({}, None):
        answer = anonymous.post(f"/api/v1/collections/{cid}/buildable", json=body)
        assert answer.status_code == 422, answer.get_json()
        error = answer.get_json()["error"]
        assert "decks" in error["message"] and "sign in" in error["message"]


def test_decks_page_says_cant_confirm_for_an_accounts_unconfirmed_deck(app, client):
    """/decks renders the account's decks with their stored three-way verdict."""
    register(client)
    newer = ST1_TEXT.replace("4 ST1-02", "4 EX13-010")
    for name, text in (("Newer", newer), ("Typo", ST1_TEXT.replace("4 ST1-02", "4 XX9-999"))):
        saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": text, "name": name})
        assert saved.status_code == 201
    verdicts = {
        d["name"]: d["verdict"] for d in client.get("/api/v1/account/decks").get_json()["data"]
    }
    assert verdicts == {"Newer": "unconfirmed", "Typo": "illegal"}
    page = client.get("/decks").get_data(as_text=True)
    assert "can&#39;t confirm</span>" in page and "not legal</span>" in page
