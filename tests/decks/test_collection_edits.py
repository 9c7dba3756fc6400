"""Collections, edited (contract "Collections, edited"): PATCH add / remove / set, the
422 `nothing-read` that keeps a bad paste from changing anything, the last 20 changes and
undo, the collection's own wrong-token message; on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from decks.deck_helpers import close, make_app

from deckcheck.decks.collection_store import HISTORY


@pytest.fixture
def both(tmp_path, events_database):
    app = make_app(tmp_path, events_database)
    yield app.test_client()
    close(app)


def create(client, cards: str, **more) -> tuple[str, dict]:
    answer = client.post("/api/v1/collections", json={"cards": cards, **more})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    return body["collection"]["id"], {"Authorization": f"Bearer {body['edit_token']}"}


def cards(client, cid: str) -> dict[str, int]:
    body = client.get(f"/api/v1/collections/{cid}").get_json()
    return {c["number"]: c["count"] for c in body["cards"]}


def patch(client, cid, auth, **body):
    return client.patch(f"/api/v1/collections/{cid}", json=body, headers=auth)


def test_add_remove_and_set_change_only_the_cards_they_name(both):
    cid, auth = create(both, "ST1-03,2\nST1-07,1")

    added = patch(both, cid, auth, add="4 Agumon ST1-03\n2 ST1-16\nno such card")
    assert added.status_code == 200
    body = added.get_json()
    assert body["read"] == 2
    assert body["unread"] == [
        {
            "line": 3,
            "text": "no such card",
            "reason": "no card of the card list has this number or name",
            "why": "no card of the card list has this number or name",
        }
    ]
    assert body["collection"]["changed"] == [
        {"number": "ST1-03", "count": 6},
        {"number": "ST1-16", "count": 2},
    ]
    assert cards(both, cid) == {"ST1-03": 6, "ST1-07": 1, "ST1-16": 2}

    patch(both, cid, auth, remove="ST1-03,1\nST1-07,5")
    assert cards(both, cid) == {"ST1-03": 5, "ST1-16": 2}  # below 0 is gone, not negative

    counts = [{"number": "ST1-16", "count": 0}, {"number": "st1-3", "count": 9}]
    done = patch(both, cid, auth, set=counts)
    assert done.status_code == 200
    assert cards(both, cid) == {"ST1-03": 9}
    assert both.get(f"/api/v1/collections/{cid}").get_json()["entries"] == 1


@pytest.mark.parametrize(
    "body",
    [
        {"add": "Quantity,Product Name\n4,Nothing Of This Game"},
        {"add": "lorem ipsum\ndolor sit amet"},
        {"set": [{"number": "XX9-999", "count": 4}]},
    ],
)
def test_a_text_that_reads_no_card_is_422_and_changes_nothing(both, body):
    cid, auth = create(both, "ST1-03,2")
    refused = patch(both, cid, auth, **body)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["code"] == "nothing-read"
    assert refused.get_json()["error"]["details"]["unread"]
    assert cards(both, cid) == {"ST1-03": 2}
    assert both.get(f"/api/v1/collections/{cid}/history").get_json() == {"data": []}


def test_a_replace_that_reads_nothing_keeps_the_collection_an_empty_text_empties_it(both):
    cid, auth = create(both, "ST1-03,2\nST1-07,4")
    url = f"/api/v1/collections/{cid}"
    mispaste = "Simple Name,Condition\nAgumon,Near Mint"  # no count column: not a card read
    refused = both.put(url, json={"cards": mispaste}, headers=auth)
    assert refused.status_code == 422 and refused.get_json()["error"]["code"] == "nothing-read"
    assert cards(both, cid) == {"ST1-03": 2, "ST1-07": 4}
    assert both.put(url, json={"cards": ""}, headers=auth).status_code == 200
    assert cards(both, cid) == {}
    refused_create = both.post("/api/v1/collections", json={"cards": "just words"})
    assert refused_create.get_json()["error"]["code"] == "nothing-read"
    assert both.post("/api/v1/collections", json={"cards": ""}).status_code == 201


def test_history_keeps_the_last_20_changes_and_undo_goes_back_one_at_a_time(both):
    cid, auth = create(both, "ST1-03,1")
    for _ in range(HISTORY + 3):
        assert patch(both, cid, auth, add="ST1-07,1").status_code == 200
    both.put(f"/api/v1/collections/{cid}", json={"cards": "ST1-16,1"}, headers=auth)

    history = both.get(f"/api/v1/collections/{cid}/history").get_json()["data"]
    assert len(history) == HISTORY
    assert history[0]["change"] == "replace"
    assert (history[0]["added"], history[0]["removed"]) == (1, 1 + HISTORY + 3)
    assert history[1]["change"] == "add" and history[1]["added"] == 1

    undone = both.post(f"/api/v1/collections/{cid}/undo", headers=auth)
    assert undone.status_code == 200
    assert {c["number"]: c["count"] for c in undone.get_json()["cards"]} == {
        "ST1-03": 1,
        "ST1-07": HISTORY + 3,
    }
    both.post(f"/api/v1/collections/{cid}/undo", headers=auth)
    assert cards(both, cid) == {"ST1-03": 1, "ST1-07": HISTORY + 2}
    for _ in range(HISTORY - 2):
        assert both.post(f"/api/v1/collections/{cid}/undo", headers=auth).status_code == 200
    last = both.post(f"/api/v1/collections/{cid}/undo", headers=auth)
    assert last.status_code == 409 and last.get_json()["error"]["code"] == "nothing-to-undo"
    # 24 changes, 20 kept: the 4 oldest adds cannot be undone.
    assert cards(both, cid) == {"ST1-03": 1, "ST1-07": 4}


def test_a_wrong_token_is_the_collections_own_403(client):
    cid, _ = create(client, "ST1-03,1")
    wrong = {"Authorization": "Bearer not-the-token"}
    for answer in (
        patch(client, cid, wrong, add="ST1-03,1"),
        client.put(f"/api/v1/collections/{cid}", json={"cards": "ST1-03,1"}, headers=wrong),
        client.post(f"/api/v1/collections/{cid}/undo", headers=wrong),
        client.post(f"/api/v1/collections/{cid}/products", json={"product": "ST1"}),
    ):
        error = answer.get_json()["error"]
        assert answer.status_code == 403 and error["code"] == "bad-token"
        assert "the collection's edit token" in error["message"]
        assert "deck's" not in error["message"]
    assert cards(client, cid) == {"ST1-03": 1}


@pytest.mark.parametrize(
    "body",
    [{}, {"add": "ST1-03,1", "remove": "ST1-03,1"}, {"set": [{"number": "ST1-03"}]}],
)
def test_a_malformed_edit_is_a_422(client, body):
    cid, auth = create(client, "ST1-03,1")
    answer = patch(client, cid, auth, **body)
    assert answer.status_code == 422 and answer.get_json()["error"]["code"] == "invalid-request"


def test_an_unknown_collection_is_a_404_for_every_route(client):
    for answer in (
        patch(client, "nope", {}, add="ST1-03,1"),
        client.get("/api/v1/collections/nope/history"),
        client.post("/api/v1/collections/nope/undo"),
        client.get("/api/v1/collections/nope/sets"),
        client.get("/api/v1/collections/nope/export"),
    ):
        assert answer.status_code == 404
        assert answer.get_json()["error"]["code"] == "collection-not-found"


def test_a_replace_dry_run_says_what_would_be_lost_and_changes_nothing(client):
    cid, auth = create(client, "ST1-03,4\nST1-07,2")
    url = f"/api/v1/collections/{cid}?dry_run=true"
    preview = client.put(url, json={"cards": "ST1-03,1\nST1-16,2"}, headers=auth).get_json()
    assert preview["would_remove"] == [
        {"number": "ST1-03", "count": 3},
        {"number": "ST1-07", "count": 2},
    ]
    assert preview["would_add"] == [{"number": "ST1-16", "count": 2}]
    assert cards(client, cid) == {"ST1-03": 4, "ST1-07": 2}
    assert client.get(f"/api/v1/collections/{cid}/history").get_json() == {"data": []}
    named = client.get(f"/api/v1/collections/{cid}?names=true").get_json()["cards"]
    assert named[0] == {"number": "ST1-03", "count": 4, "name": "Agumon"}
