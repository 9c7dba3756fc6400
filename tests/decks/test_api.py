"""The saved decks API as a player's program meets it: save, read, edit twice, versions,
the diff, delete; tokens, limits and every refusal in the error shape."""

from __future__ import annotations

import pytest
from fixture_cards import ST1_DECK, ST1_TEXT

from deckcheck.server.tables.decks import decks
from deckcheck.server.tokens import token_hash


def save(client, **body) -> dict:
    response = client.post("/api/v1/decks", json={"format": "dcg", **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_save_edit_twice_and_see_the_diff(client):
    saved = save(client, name="  Blue\u200b Flare ", decklist=ST1_TEXT, notes="for the cup")
    deck, token = saved["deck"], saved["edit_token"]
    assert deck["name"] == "Blue Flare"  # normalised as event names are
    assert deck["version"] == 1 and deck["legal"] is True and deck["changed"] is False
    assert deck["url"] == f"/d/{deck['id']}" and deck["feed_url"].endswith("/changes.atom")
    assert saved["edit_url"] == f"/d/{deck['id']}/edit#{token}"
    assert deck["sections"]["eggs"]["cards"][0]["number"] == "ST1-01"
    second = ST1_TEXT.replace("4 ST1-02", "2 ST1-02")
    response = client.put(
        f"/api/v1/decks/{deck['id']}", json={"decklist": second}, headers=auth(token)
    )
    assert response.status_code == 200 and response.get_json()["version"] == 2
    third = {**ST1_DECK, "main": [*ST1_DECK["main"], {"card": "BT1-010", "count": 2}]}
    response = client.put(
        f"/api/v1/decks/{deck['id']}", json={"deck": third, "name": "Red"}, headers=auth(token)
    )
    body = response.get_json()
    assert body["version"] == 3 and body["versions"] == 3 and body["name"] == "Red"
    assert body["notes"] == "for the cup"  # kept when not sent
    assert client.get(f"/api/v1/decks/{deck['id']}/diff").get_json() == {
        "from": 2,
        "to": 3,
        "added": [{"number": "BT1-010", "name": "Agumon", "count": 2}],
        "removed": [],
        "changed": [{"number": "ST1-02", "name": "Biyomon", "from": 2, "to": 4}],
    }
    first = client.get(f"/api/v1/decks/{deck['id']}/diff?from=1&to=2").get_json()
    assert first["changed"] == [{"number": "ST1-02", "name": "Biyomon", "from": 4, "to": 2}]
    listed = client.get(f"/api/v1/decks/{deck['id']}/versions").get_json()["data"]
    assert [v["version"] for v in listed] == [1, 2, 3]
    one = client.get(f"/api/v1/decks/{deck['id']}/versions/1").get_json()
    assert one["decklist"] == ST1_TEXT and one["cards"]["eggs"] == [
        {"number": "ST1-01", "count": 4}
    ]
    three = client.get(f"/api/v1/decks/{deck['id']}/versions/3").get_json()
    assert three["deck"] == third


def test_the_token_is_stored_hashed_and_a_wrong_one_changes_nothing(app, client):
    saved = save(client, decklist=ST1_TEXT)
    deck_id, token = saved["deck"]["id"], saved["edit_token"]
    from deckcheck.decks.core import store

    with app.app_context():
        with store().engine.begin() as conn:
            row = conn.execute(decks.select().where(decks.c.id == deck_id)).one()
    assert row.edit_hash == token_hash(token) and token not in str(tuple(row))
    for headers in ({}, auth("nope"), auth(token + "x"), {"Authorization": token}):
        put = client.put(f"/api/v1/decks/{deck_id}", json={"decklist": "1 ST1-03"}, headers=headers)
        assert put.status_code == 403 and put.get_json()["error"]["code"] == "bad-token"
        gone = client.delete(f"/api/v1/decks/{deck_id}", headers=headers)
        assert gone.status_code == 403 and gone.get_json()["error"]["code"] == "bad-token"
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["version"] == 1
    assert client.delete(f"/api/v1/decks/{deck_id}", headers=auth(token)).status_code == 204
    for path in ("", "/versions", "/diff", "/sample", "/versions/1"):
        response = client.get(f"/api/v1/decks/{deck_id}{path}")
        assert response.status_code == 404, path
        assert response.get_json()["error"]["code"] == "deck-not-found"
    assert client.get(f"/d/{deck_id}/changes.atom").status_code == 404


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"decklist": "x" * (64 * 1024 + 1)}, 413, "list-too-large"),
        ({"decklist": ST1_TEXT, "format": "nope"}, 422, "unknown-format"),
        ({"decklist": ST1_TEXT, "name": "\u200b\u200b"}, 422, "invalid-request"),
        ({"decklist": ST1_TEXT, "name": "a\x00b"}, 422, "invalid-request"),
        ({"decklist": ST1_TEXT, "name": "n" * 201}, 422, "invalid-request"),
        ({"decklist": ST1_TEXT, "notes": "é" * 2049}, 422, "invalid-request"),
        ({"decklist": ST1_TEXT, "deck": ST1_DECK}, 422, "invalid-request"),
        ({}, 422, "invalid-request"),
    ],
)
def test_bad_saves_are_clear_4xx_and_store_nothing(app, client, body, status, code):
    response = client.post("/api/v1/decks", json={"format": "dcg", **body})
    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code
    from deckcheck.decks.core import store

    with app.app_context():
        assert store().count() == 0


def test_creating_decks_is_limited_per_address(tmp_path):
    from decks.deck_helpers import close, make_app

    app = make_app(tmp_path, str(tmp_path / "e.db"), DECKS_CREATE_LIMIT=(2, 3600))
    client = app.test_client()
    assert [client.post("/api/v1/decks", json={"format": "dcg", "decklist": ST1_TEXT}).status_code
            for _ in range(3)] == [201, 201, 429]  # fmt: skip
    refused = client.post("/api/v1/decks", json={"format": "dcg", "decklist": ST1_TEXT})
    assert refused.get_json()["error"]["code"] == "too-many-decks"
    close(app)


def test_bad_version_numbers_and_diffs(client):
    deck_id = save(client, decklist=ST1_TEXT)["deck"]["id"]
    assert client.get(f"/api/v1/decks/{deck_id}/versions/9").get_json()["error"]["code"] == (
        "version-not-found"
    )
    for query in ("from=x", "to=-1", "from=١", "to=99999999999"):
        response = client.get(f"/api/v1/decks/{deck_id}/diff?{query}")
        assert response.status_code in (404, 422), query
    assert client.get(f"/api/v1/decks/{deck_id}/versions/abc").status_code == 422
    # One version: its diff with itself is empty.
    assert client.get(f"/api/v1/decks/{deck_id}/diff").get_json()["added"] == []


def test_lookup_answers_many_decks_in_one_call(client):
    ids = [save(client, decklist=ST1_TEXT, name=f"D{n}")["deck"]["id"] for n in range(3)]
    body = client.post("/api/v1/decks/lookup", json={"ids": [*ids, "nope", "../x", ids[0]]})
    data = body.get_json()
    assert [d["id"] for d in data["data"]] == ids
    assert data["data"][0] == {
        "id": ids[0], "name": "D0", "format": "dcg", "legal": True, "verdict": "legal",
        "changed": False,
        "updated_at": data["data"][0]["updated_at"], "version": 1, "current": True,
    }  # fmt: skip
    assert data["not_found"] == ["nope", "../x"]
    too_many = client.post("/api/v1/decks/lookup", json={"ids": ["a"] * 501})
    assert too_many.status_code == 422


@pytest.mark.parametrize("method", ["get", "put", "delete"])
@pytest.mark.parametrize("name", ["validate", "validate-batch", "export", "odds", "lookup"])
def test_the_post_routes_beside_decks_are_405_not_decks(client, method, name):
    response = getattr(client, method)(f"/api/v1/decks/{name}")
    assert response.status_code == 405 and response.headers["Allow"] == "POST"


def test_a_list_is_kept_structured_and_unread_lines_are_reported(client):
    saved = save(client, decklist=ST1_TEXT + "\n2 Not A Real Card\n")["deck"]
    assert saved["legal"] is False
    assert [v["code"] for v in saved["violations"]][:1] == ["unknown-card"]
    version = client.get(f"/api/v1/decks/{saved['id']}/versions/1").get_json()
    assert version["unread"] == [{"text": "2 Not A Real Card", "count": 2}]
    assert (
        client.get(f"/api/v1/decks/{saved['id']}").get_json()["violations"] == saved["violations"]
    )


def test_an_edit_link_opens_the_builder_whatever_the_deck_holds(client):
    """`/d/<id>/edit` is the builder itself (static/decks.js reads the deck from the API):
    no redirect to an address holding the list, which a deck of 1,000 different cards
    made 13,901 characters long (a 414); an unknown deck is the 404 page."""
    numbers = [
        c["number"]
        for page in range(1, 7)
        for c in client.get(
            "/api/v1/cards", query_string={"game": "dcg", "per_page": 200, "page": page}
        ).get_json()["data"]
        if c["kind"] != "digi-egg"
    ][:1000]
    deck = {"main": [{"card": n, "count": 1} for n in numbers]}
    saved = client.post("/api/v1/decks", json={"format": "dcg", "deck": deck}).get_json()
    opened = client.get(f"/d/{saved['deck']['id']}/edit")
    assert opened.status_code == 200 and b'id="builder"' in opened.data
    assert client.get("/d/NoSuchDeck123/edit").status_code == 404
