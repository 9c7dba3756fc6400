"""Limits before work (issue 40): a collection refused by the per-address create limit
costs no parse of its body. Before, its up to 20,000 lines were read first (0.3-0.5 s of
CPU for each refused request)."""

from __future__ import annotations

from decks.deck_helpers import close, make_app

from deckcheck.decks import collections_api, imports

BIG = "\n".join(f"{n % 9 + 1} ST1-{n % 16 + 1:02d}" for n in range(20_000))


def test_a_refused_collection_is_not_read(tmp_path, monkeypatch):
    app = make_app(tmp_path, str(tmp_path / "e.db"), DECKS_CREATE_LIMIT=(1, 3600))
    client = app.test_client()
    read = []
    parsed = []
    real_read, real_body = imports.read, collections_api.json_body
    monkeypatch.setattr(imports, "read", lambda *a: read.append(1) or real_read(*a))
    monkeypatch.setattr(collections_api, "json_body", lambda: parsed.append(1) or real_body())
    first = client.post("/api/v1/collections", json={"game": "dcg", "cards": "4 ST1-01"})
    assert first.status_code == 201 and read == parsed == [1]
    refused = client.post("/api/v1/collections", json={"game": "dcg", "cards": BIG})
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too-many-collections"
    assert read == parsed == [1], "the refused body was parsed"
    close(app)
