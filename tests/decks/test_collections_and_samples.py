"""Collections and what a deck lacks (any printing of a number, and a printing "also
treated as" it, count); sample hands (each game's opening rules; same seed, same draw)."""

from __future__ import annotations

from collections import Counter

import pytest
from fixture_cards import ST1_COUNTS, ST1_TEXT

from deckcheck.decks import imports


def save_deck(client, text: str, fmt: str = "dcg") -> str:
    response = client.post("/api/v1/decks", json={"format": fmt, "decklist": text})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["deck"]["id"]


def save_collection(client, cards: str, **more) -> dict:
    response = client.post("/api/v1/collections", json={"cards": cards, **more})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_missing_counts_alternate_arts_and_treated_as_printings(client):
    deck_id = save_deck(client, "4 P-009\n4 ST1-03\n2 ST1-07")
    owned = save_collection(
        client, "number,count\nRB1-004,1\nP-009_P2,1\nST1-03,9\n1 Greymon ST1-07\nno such card"
    )
    assert owned["collection"]["unread"] == [
        {
            "line": 6,
            "text": "no such card",
            "reason": "no card of the card list has this number or name",
            "why": "no card of the card list has this number or name",
        }
    ]
    cid = owned["collection"]["id"]
    body = client.get(f"/api/v1/decks/{deck_id}/missing?collection={cid}").get_json()
    assert body == {
        "missing": [
            {"number": "P-009", "name": "Agumon", "need": 4, "have": 2},
            {"number": "ST1-07", "name": "Greymon", "need": 2, "have": 1},
        ],
        "cards_missing": 3,
    }


def test_a_collection_is_read_and_replaced_with_its_token(client):
    saved = save_collection(client, "ST1-03,2", name="Binder")
    cid, token = saved["collection"]["id"], saved["edit_token"]
    assert client.get(f"/api/v1/collections/{cid}").get_json()["cards"] == [
        {"number": "ST1-03", "count": 2}
    ]
    refused = client.put(f"/api/v1/collections/{cid}", json={"cards": "ST1-03,4"})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "bad-token"
    replaced = client.put(
        f"/api/v1/collections/{cid}",
        json={"cards": "4 Agumon ST1-03\n4 ST1-03"},
        headers={"Authorization": f"Bearer {token}"},
    ).get_json()
    assert replaced["cards"] == [{"number": "ST1-03", "count": 8}] and replaced["name"] == "Binder"
    assert client.get("/api/v1/collections/nope").status_code == 404
    deck_id = save_deck(client, "4 ST1-03")
    missing = client.get(f"/api/v1/decks/{deck_id}/missing?collection=nope")
    assert missing.get_json()["error"]["code"] == "collection-not-found"


def test_a_collection_holds_at_most_20000_entries(client):
    lines = "\n".join(f"ST1-{n % 16 + 1:02d},1" for n in range(imports.MAX_ENTRIES))
    assert client.post("/api/v1/collections", json={"cards": lines}).status_code == 201
    over = client.post("/api/v1/collections", json={"cards": lines + "\nST1-03,1"})
    assert over.status_code == 422 and over.get_json()["error"]["code"] == "collection-too-large"
    big = client.post("/api/v1/collections", json={"cards": "x" * (1024 * 1024 + 1)})
    assert big.status_code == 413


def test_a_dcg_sample_is_5_in_hand_then_5_security_from_the_main_deck(client):
    deck_id = save_deck(client, ST1_TEXT)
    first = client.get(f"/api/v1/decks/{deck_id}/sample?seed=42").get_json()
    assert first == client.get(f"/api/v1/decks/{deck_id}/sample?seed=42").get_json()
    assert first["seed"] == 42 and len(first["hand"]) == 5 and len(first["security"]) == 5
    assert first["set_aside"] == [] and first["warnings"] == []
    main = dict(ST1_COUNTS)
    drawn = Counter(c["number"] for c in (*first["hand"], *first["security"]))
    assert all(number in main and n <= main[number] for number, n in drawn.items())
    seeds = {
        tuple(
            c["number"]
            for c in client.get(f"/api/v1/decks/{deck_id}/sample?seed={s}").get_json()["hand"]
        )
        for s in range(20)
    }
    assert len(seeds) > 10  # other seeds, other hands
    unseeded = client.get(f"/api/v1/decks/{deck_id}/sample").get_json()
    again = client.get(f"/api/v1/decks/{deck_id}/sample?seed={unseeded['seed']}").get_json()
    assert again["hand"] == unseeded["hand"]


@pytest.mark.parametrize("seed", ["-1", "x", "1.5", "9" * 17, "٣"])
def test_a_bad_seed_is_422(client, seed):
    deck_id = save_deck(client, ST1_TEXT)
    response = client.get(f"/api/v1/decks/{deck_id}/sample?seed={seed}")
    assert response.status_code == 422 and response.get_json()["error"]["code"] == "invalid-request"


def test_digi_battle_sets_a_rookie_aside_then_deals_10(client):
    text = "1 ST-01\n" + "\n".join(f"3 {n}" for n in ("ST-10", "ST-12", "ST-14", "ST-15", "ST-16"))
    deck_id = save_deck(client, text, "digibattle")
    for seed in range(5):
        body = client.get(f"/api/v1/decks/{deck_id}/sample?seed={seed}").get_json()
        # The one Rookie is always set aside, wherever the shuffle put it.
        assert body["set_aside"] == [{"number": "ST-01", "name": "Agumon"}]
        assert len(body["hand"]) == 10 and body["security"] == []
        assert "ST-01" not in {c["number"] for c in body["hand"]}
