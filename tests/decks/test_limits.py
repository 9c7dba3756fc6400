"""What one deck may cost (issue 41, attack items): new versions are limited per deck
and address (429 `too-many-saves`), a deck keeps its newest versions only, and
`/versions` comes a page at a time (its `data` as before, with `has_more`)."""

from __future__ import annotations

import pytest
from decks.deck_helpers import close, make_app
from fixture_cards import ST1_DECK

from deckcheck.decks import versions_kept


def put(client, deck_id, token, count, address="127.0.0.1"):
    deck = {**ST1_DECK, "eggs": [{"card": "ST1-01", "count": count}]}
    return client.put(
        f"/api/v1/decks/{deck_id}",
        json={"deck": deck},
        headers={"Authorization": f"Bearer {token}"},
        environ_base={"REMOTE_ADDR": address},
    )


def saved(client) -> tuple[str, str]:
    made = client.post("/api/v1/decks", json={"format": "dcg", "deck": ST1_DECK}).get_json()
    return made["deck"]["id"], made["edit_token"]


@pytest.fixture
def limited(tmp_path, events_database):
    """On SQLite and PostgreSQL (the events tests' fixture)."""
    made = make_app(tmp_path, events_database, DECKS_SAVE_LIMIT=(3, 3600), DECKS_VERSIONS_KEPT=4)
    yield made
    close(made)


def test_new_versions_are_limited_per_deck_and_address(limited):
    client = limited.test_client()
    deck_id, token = saved(client)
    other_id, other_token = saved(client)
    assert [put(client, deck_id, token, n % 4 + 1).status_code for n in range(3)] == [200] * 3
    refused = put(client, deck_id, token, 2)
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too-many-saves"
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["version"] == 4  # nothing stored
    assert put(client, other_id, other_token, 2).status_code == 200  # another deck
    assert put(client, deck_id, token, 2, address="10.0.0.9").status_code == 200  # another address
    # A stranger's PUT (wrong token) is a 403 and takes nothing from the owner's bucket.
    assert put(client, other_id, "wrong-token-xxxx", 1).status_code == 403


def test_a_deck_keeps_its_newest_versions(limited):
    limited.config["DECKS_SAVE_LIMIT"] = (0, 60)
    client = limited.test_client()
    deck_id, token = saved(client)
    for n in range(6):
        assert put(client, deck_id, token, n % 4 + 1).status_code == 200
    listed = client.get(f"/api/v1/decks/{deck_id}/versions").get_json()
    assert [v["version"] for v in listed["data"]] == [4, 5, 6, 7]
    assert listed["has_more"] is False
    gone = client.get(f"/api/v1/decks/{deck_id}/versions/3")
    assert gone.status_code == 404 and "newest 4 versions" in gone.get_json()["error"]["message"]
    assert client.get(f"/api/v1/decks/{deck_id}/diff").status_code == 200
    assert client.get(f"/d/{deck_id}").status_code == 200


def test_versions_come_a_page_at_a_time(app):
    app.config["DECKS_SAVE_LIMIT"] = (0, 60)
    client = app.test_client()
    deck_id, token = saved(client)
    for n in range(4):
        put(client, deck_id, token, n % 4 + 1)
    first = client.get(f"/api/v1/decks/{deck_id}/versions?limit=2").get_json()
    assert [v["version"] for v in first["data"]] == [1, 2]
    assert first["has_more"] is True and first["next_after"] == 2
    second = client.get(f"/api/v1/decks/{deck_id}/versions?after=2&limit=2").get_json()
    assert [v["version"] for v in second["data"]] == [3, 4]
    last = client.get(f"/api/v1/decks/{deck_id}/versions?after=4&limit=2").get_json()
    assert [v["version"] for v in last["data"]] == [5] and last["has_more"] is False
    assert last["next_after"] is None
    for bad in ("limit=0", "limit=101", "limit=x", "after=-1", "limit=00001"):
        answer = client.get(f"/api/v1/decks/{deck_id}/versions?{bad}")
        assert answer.status_code == 422, bad


def test_versions_kept_is_read_or_refused():
    assert versions_kept(None) == 100 and versions_kept(" 7 ") == 7
    for bad in ("1", "x", "-3", "100001"):
        with pytest.raises(ValueError, match="DECKCHECK_DECKS_VERSIONS_KEPT"):
            versions_kept(bad)
