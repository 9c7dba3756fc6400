"""`/c/<id>`, a shared collection, carries link preview tags as `/d/<id>` does (contract
"Saved deck pages"): og:title, og:description (game, different cards, total) and og:url
from DECKCHECK_BASE_URL, left out without it."""

from __future__ import annotations

import pytest
from decks.deck_helpers import close, make_app
from decks.test_deck_page import meta_of


@pytest.fixture
def based(tmp_path):
    made = make_app(tmp_path, str(tmp_path / "events.db"), BASE_URL="https://decks.example")
    yield made
    close(made)


def shared(app, cards: str, name: str = "Trade binder") -> tuple[str, str]:
    client = app.test_client()
    made = client.post("/api/v1/collections", json={"name": name, "cards": cards})
    assert made.status_code == 201, made.get_json()
    cid = made.get_json()["collection"]["id"]
    page = client.get(f"/c/{cid}")
    assert page.status_code == 200
    return cid, page.get_data(as_text=True)


def test_a_shared_collection_has_its_preview_tags(based):
    cid, html = shared(based, "ST1-01,4\nST1-02,3\nBT1-010,1200")
    meta = meta_of(html)
    assert meta.tags["og:title"] == "Trade binder"
    assert meta.tags["og:description"] == (
        "A Digimon Card Game collection: 3 different cards, 1,207 in all."
    )
    assert meta.tags["og:url"] == f"https://decks.example/c/{cid}"
    assert meta.tags["og:type"] == "website" and meta.tags["description"]


def test_without_a_base_url_the_full_address_is_left_out(app):
    _, html = shared(app, "ST1-01,1", name="Mine")
    meta = meta_of(html)
    assert meta.tags["og:title"] == "Mine"
    assert meta.tags["og:description"].endswith("1 different card, 1 in all.")
    assert "og:url" not in meta.tags
