"""Per-request budgets on the API (contract "Limits"): a batch of decks full of unknown
names shares one budget of suggestions, and is answered in bounded time."""

import time

import pytest

from rules.budget import SUGGESTIONS


def _batch(decks: int, names: int = 20) -> dict:
    return {
        "format": "dcg",
        "decks": [
            {"id": d, "decklist": "\n".join(f"1 Zqx{d}x{n} Unknownmon" for n in range(names))}
            for d in range(decks)
        ],
    }


def _structured_batch(decks: int, names: int = 20) -> dict:
    entries = [
        [{"card": f"Zqy{d}x{n} Unknownmon", "count": 1} for n in range(names)] for d in range(decks)
    ]
    return {
        "format": "dcg",
        "decks": [{"id": d, "deck": {"main": e}} for d, e in enumerate(entries)],
    }


def _suggested(results: list[dict]) -> int:
    return sum(
        1
        for r in results
        for v in r["violations"]
        if v["code"] == "unknown-card" and v["suggestions"]
    )


# A budget per deck instead of per request costs 100 decks about 10 s of suggestions here;
# 0.6 s leaves room for a busy machine's process CPU (it reads 0.27-0.34 s) and still fails it.
@pytest.mark.parametrize(("decks", "seconds"), [(100, 0.6), (1000, 2.0)])
@pytest.mark.parametrize("make", [_batch, _structured_batch], ids=["text", "structured"])
def test_a_batch_of_unknown_names_shares_one_budget_and_stays_fast(client, make, decks, seconds):
    client.post("/api/v1/decks/validate-batch", json=make(2))  # the pool loaded, as in service
    body = make(decks)
    start = time.process_time()
    response = client.post("/api/v1/decks/validate-batch", json=body)
    spent = time.process_time() - start
    results = response.get_json()["results"]
    assert response.status_code == 200 and len(results) == decks
    unknown = [v for r in results for v in r["violations"] if v["code"] == "unknown-card"]
    assert len(unknown) == decks * 20  # every name reported
    assert _suggested(results) <= SUGGESTIONS  # suggestions for the first 20 of the request
    assert "no suggestion looked for" in unknown[-1]["message"]
    assert spent < seconds, spent


def test_each_request_has_its_own_budget(client):
    for _ in range(2):
        results = client.post("/api/v1/decks/validate-batch", json=_batch(2)).get_json()["results"]
        unknown = [
            [v["message"] for v in r["violations"] if v["code"] == "unknown-card"] for r in results
        ]
        assert [len(messages) for messages in unknown] == [20, 20]
        assert all("no suggestion looked for" not in m for m in unknown[0])  # the first 20
        assert all("no suggestion looked for" in m for m in unknown[1])


ACCEPTED = [
    {
        "id": 1,
        "deck": {
            "main": [{"card": "ST1-03", "count": 4}],
            "eggs": [{"card": "ST1-01", "count": 4}],
        },
    },
    {"deck": {"main": [{"card": "ST1-03", "count": 4}], "partner": "BT1-010"}},
    {"id": "x", "deck": {"main": []}, "extra": 5},
    {"id": None, "deck": {"destiny": [{"card": "a" * 200, "count": 1000}], "partner": None}},
]
REFUSED = [
    {"deck": {"main": [{"card": "ST1-03", "count": 0}]}},
    {"deck": {"main": [{"card": "ST1-03", "count": True}]}},
    {"deck": {"main": [{"card": "", "count": 1}]}},
    {"deck": {"main": [{"card": "ST1-03", "count": 1, "x": 1}]}},
    {"deck": {"egg": []}},
    {"deck": {"main": []}, "decklist": "4 ST1-03"},
    {"deck": {"main": [], "partner": 3}},
]


@pytest.mark.parametrize("item", ACCEPTED)
def test_a_batch_deck_read_by_plain_checks_is_what_the_schema_gives(item, monkeypatch):
    from deckcheck import check_bodies, schemas, service
    from deckcheck.schemas import deck_input

    plain = check_bodies._plain_payload(item)
    assert plain is not None  # the plain path is taken
    # The schema all the way down: marshmallow's nested entry schema, not the plain loop.
    monkeypatch.setattr(deck_input, "_plain_entries", lambda entries: False)
    assert plain == service.as_payload(schemas.BatchDeckSchema().load(item))


@pytest.mark.parametrize("item", REFUSED)
def test_a_batch_deck_the_schema_refuses_is_left_to_the_schema(item):
    from marshmallow import ValidationError

    from deckcheck import check_bodies, schemas

    assert check_bodies._plain_payload(item) is None  # so the schema answers, with its own errors
    with pytest.raises(ValidationError):
        schemas.BatchDeckSchema().load(item)
