"""Products (a starter deck by its sourced list, a playset of a set), per-set completion
newest first, and what a collection can build with a shopping list."""

from __future__ import annotations

import pytest
from fixture_cards import ST1_TEXT

from deckcheck.decks import products
from deckcheck.errors import ApiError
from rules.deckcode import decode

# The English deck codes (version 2) the starter lists were read from
# (gomadoge/csharp-dcg-deck-codec, src/GomaDoge.DCG.DeckCodec.Test/TestData/DecksEncoded.cs),
# decoded here by deckcheck's own decoder: the shipped table says what the codes say.
CODES = {
    "ST1": "DCGITsdAJydAUEDAZydAU8DAgMBAwEDAQMBAQEDAQMBAQEBAQMBAwEDAQEBAQFTdGFydGVyIERlY2ssIEdh"
    "aWEgUmVkIFtTVC0xXQ",
    "ST2": "DCGIT0hAJydAkEDAZydAk8DAgMBAwEDAQEBAwEDAQMBAQEBAQMBAwEBAQMBAQFTdGFydGVyIERlY2ssIENv"
    "Y3l0dXMgQmx1ZSBbU1QtMl0",
    "ST3": "DCGIT8kAJydA0EDAZydA08DAgMBAwEBAQMBAwEDAQMBAQEBAQMBAwEBAQMBAQFTdGFydGVyIERlY2ssIEhl"
    "YXZlbidzIFllbGxvdyBbU1QtM10",
    "ST4": "DCGIUEfAJydBEEDAZydBE8DAgMBAwEDAQMBAwEBAQMBAwEBAQEBAQEDAQMBAQFTdGFydGVyIERlY2ssIEdp"
    "Z2EgR3JlZW4gW1NULTRd",
    "ST5": "DCGIUMiAJydBUEDAZydBU8DAgMBAwEDAQMBAwEBAQMBAwEBAQEBAQEDAQMBAQFTdGFydGVyIERlY2ssIE1h"
    "Y2hpbmUgQmxhY2sgW1NULTVd",
    "ST6": "DCGIUUkAJydBkEDAZydBk8DAgMBAwEDAQMBAwEBAQMBAwEBAQEBAQEDAQMBAQFTdGFydGVyIERlY2ssIFZl"
    "bm9tb3VzIFZpb2xldCBbU1QtNl0",
}


@pytest.mark.parametrize("code", sorted(CODES))
def test_the_starter_table_is_what_its_source_codes_hold(code):
    deck = decode(CODES[code])
    held = {e.number: e.count for e in (*deck.digi_eggs, *deck.deck)}
    assert products.starter_decks()[code]["cards"] == held
    assert sorted(products.starter_decks()) == sorted(CODES)  # only the decks a source lists


def test_only_a_game_whose_entry_names_starter_decks_has_them():
    # rules.games: DCG's `dated.starter_decks`; the other games (and an unknown id) none.
    assert products.starter_decks("dcg") == products.starter_decks()
    assert products.starter_decks("dmcg") == products.starter_decks("nope") == {}
    with pytest.raises(ApiError) as refused:
        products.starter("ST1", "dmcg")
    assert refused.value.details == {"product": "ST1", "known": []}


def create(client, cards: str) -> tuple[str, dict]:
    body = client.post("/api/v1/collections", json={"cards": cards}).get_json()
    return body["collection"]["id"], {"Authorization": f"Bearer {body['edit_token']}"}


def owned(client, cid: str) -> dict[str, int]:
    body = client.get(f"/api/v1/collections/{cid}").get_json()
    return {c["number"]: c["count"] for c in body["cards"]}


def test_a_starter_deck_adds_its_list_and_can_be_undone(client):
    cid, auth = create(client, "ST1-03,1")
    added = client.post(
        f"/api/v1/collections/{cid}/products", json={"product": "st-1"}, headers=auth
    )
    assert added.status_code == 200
    assert owned(client, cid)["ST1-03"] == 5 and owned(client, cid)["ST1-01"] == 4
    assert sum(owned(client, cid).values()) == 55
    history = client.get(f"/api/v1/collections/{cid}/history").get_json()["data"]
    assert history[0]["change"] == "product" and history[0]["added"] == 54
    client.post(f"/api/v1/collections/{cid}/undo", headers=auth)
    assert owned(client, cid) == {"ST1-03": 1}


def test_an_unlisted_starter_deck_or_set_is_refused_by_name(client):
    cid, auth = create(client, "ST1-03,1")
    url = f"/api/v1/collections/{cid}/products"
    unknown = client.post(url, json={"product": "ST19"}, headers=auth)
    assert unknown.status_code == 422 and unknown.get_json()["error"]["code"] == "unknown-product"
    assert "ST1" in unknown.get_json()["error"]["details"]["known"]
    no_set = client.post(url, json={"playset": "ZZ9"}, headers=auth)
    assert no_set.status_code == 422
    both = client.post(url, json={"product": "ST1", "playset": "BT1"}, headers=auth)
    assert both.status_code == 422
    assert owned(client, cid) == {"ST1-03": 1}


def test_a_playset_and_per_set_completion(client):
    cid, auth = create(client, "ST1-03,1\nST1-07,4")
    sets = client.get(f"/api/v1/collections/{cid}/sets").get_json()["data"]
    st1 = next(s for s in sets if s["set"] == "ST1")
    assert (st1["cards"], st1["owned"], st1["playset_owned"]) == (16, 2, 1)
    codes = [s["set"] for s in sets]
    assert codes.index("BT24") < codes.index("BT1") and codes.index("EX1") < codes.index("ST1")

    added = client.post(
        f"/api/v1/collections/{cid}/products", json={"playset": "BT1"}, headers=auth
    )
    assert added.status_code == 200
    sets = client.get(f"/api/v1/collections/{cid}/sets").get_json()["data"]
    bt1 = next(s for s in sets if s["set"] == "BT1")
    assert bt1["owned"] == bt1["playset_owned"] == bt1["cards"] > 100


def test_buildable_sorts_decks_and_lists_what_to_buy(client):
    cid, _ = create(client, "ST1-01,4\n" + "\n".join(f"ST1-{n:02d},2" for n in range(2, 17)))
    decks = {}
    for name, text in (("Starter", ST1_TEXT), ("Small", "4 ST1-01\n2 ST1-03"), ("Agu", "4 P-009")):
        saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": text, "name": name})
        decks[name] = saved.get_json()["deck"]["id"]
    ids = [decks["Starter"], decks["Agu"], decks["Small"], "nope"]
    answer = client.post(f"/api/v1/collections/{cid}/buildable", json={"decks": ids})
    assert answer.status_code == 200
    body = answer.get_json()
    assert [(d["name"], d["complete"]) for d in body["data"]] == [
        ("Small", True),
        ("Agu", False),
        ("Starter", False),
    ]
    assert [d["cards_missing"] for d in body["data"]] == [0, 4, 20]
    shopping = {s["number"]: s["count"] for s in body["shopping_list"]}
    assert shopping["P-009"] == 4 and shopping["ST1-03"] == 2 and "ST1-01" not in shopping
    assert "4 Agumon P-009\n" in body["shopping_text"]
    assert body["shopping_csv"].startswith('"number","name","count"')
    assert body["not_found"] == ["nope"]
