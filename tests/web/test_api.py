"""The JSON API: every contract route, exact shapes (starter pool unless stated)."""

from datetime import UTC, datetime

import pytest
from fixture_cards import ST1_DECK as ST1

from deckcheck.schemas import (
    BatchResponseSchema,
    CardListSchema,
    CardSchema,
    ExportResponseSchema,
    FormatListSchema,
    FormatSchema,
    ReportSchema,
)


def validate(client, **body):
    return client.post("/api/v1/decks/validate", json={"format": "dcg", **body})


def test_validate_structured_legal(client):
    response = validate(client, deck=ST1, date="2021-01-01")
    assert response.status_code == 200
    data = response.get_json()
    assert ReportSchema().validate(data) == {}
    assert data["legal"] is True and data["violations"] == []
    assert data["format"] == {
        "id": "dcg",
        "game": "dcg",
        "name": "Digimon Card Game",
        "date": "2021-01-01",
    }
    assert data["deck"]["sections"]["main"]["count"] == 50
    assert data["deck"]["sections"]["eggs"]["cards"][0] == {
        "number": "ST1-01",
        "name": "Koromon",
        "count": 4,
        "kind": "digi-egg",
        "level": "2",
        "colors": ["Red"],
        "types": ["Red"],
    }
    assert (
        data["deck"]["fingerprint"].startswith("sha256:") and len(data["deck"]["fingerprint"]) == 71
    )


def test_validate_violation_shape(client):
    deck = {"main": [{"card": "ST1-03", "count": 5}]}
    data = validate(client, deck=deck, date="2021-01-01").get_json()
    copy = next(v for v in data["violations"] if v["code"] == "copy-limit")
    assert copy == {
        "code": "copy-limit",
        "message": "You have 5 copies of ST1-03 Agumon in your main deck, but the limit "
        "for this card is 4. Remove 1 copy.",
        "rule": copy["rule"],
        "section": "main",
        "cards": ["ST1-03"],
        "line": None,
    }
    assert "1-4-1-2-2" in copy["rule"]


def test_validate_text_reports_lines(client):
    data = validate(client, decklist="4 ST1-03\n4 Notamon\n???").get_json()
    problems = {v["code"]: v for v in data["violations"]}
    assert problems["unknown-card"]["line"] == 2 and "suggestions" in problems["unknown-card"]
    assert problems["unparsed-line"]["line"] == 3
    assert data["deck"]["style"] == "text"


def test_default_date_is_today_in_utc(client):
    # Computed here, not by the service's own helper: the contract's "today" is UTC's.
    before = datetime.now(UTC).date().isoformat()
    data = validate(client, deck=ST1).get_json()
    after = datetime.now(UTC).date().isoformat()
    assert data["format"]["date"] in {before, after}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"format": "nope", "decklist": "4 ST1-03"}, 422, "unknown-format"),
        ({"format": "dcg", "date": "2024-13-45", "decklist": "4 ST1-03"}, 422, "invalid-request"),
        ({"format": "dcg"}, 422, "invalid-request"),
        ({"format": "dcg", "decklist": "x", "deck": {"main": []}}, 422, "invalid-request"),
        (
            {"format": "dcg", "deck": {"main": [{"card": "ST1-03", "count": 0}]}},
            422,
            "invalid-request",
        ),
        (
            {"format": "dcg", "deck": {"main": [{"card": "ST1-03", "count": 1001}]}},
            422,
            "invalid-request",
        ),
        (
            {"format": "dcg", "deck": {"main": [{"card": "ST1-03", "count": "4"}]}},
            422,
            "invalid-request",
        ),
        ({"format": "dcg", "deck": {"egg": []}}, 422, "invalid-request"),
        ({"format": "dcg", "decklist": "4 ST1-03\n" * 1001}, 422, "decklist-too-long"),
    ],
    ids=[
        "unknown-format",
        "bad-date",
        "no-deck",
        "both",
        "count-0",
        "count-1001",
        "count-string",
        "unknown-section",
        "too-long",
    ],
)
def test_validate_errors(client, body, status, code):
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code


def test_bad_date_details_name_the_field(client):
    data = validate(client, date="2024-13-45", decklist="4 ST1-03").get_json()
    assert "date" in data["error"]["details"]["fields"]


def test_batch_keeps_order_and_isolates_bad_decks(client):
    body = {
        "format": "digibattle",
        "decks": [
            {"id": "b", "decklist": "1 ST-01"},
            {"id": "a", "deck": {"main": []}},
            {"id": 3, "deck": {"main": [{"card": "ST-01", "count": 0}]}},
        ],
    }
    response = client.post("/api/v1/decks/validate-batch", json=body)
    data = response.get_json()
    assert response.status_code == 200 and BatchResponseSchema().validate(data) == {}
    assert [r["id"] for r in data["results"]] == ["b", "a", 3]
    assert (
        data["results"][2]["legal"] is False
        and data["results"][2]["error"]["code"] == "invalid-deck"
    )
    assert data["results"][0]["fingerprint"].startswith("sha256:")


@pytest.mark.parametrize("style", ["text", "tts", "deck-code"])
def test_export_reimports_to_the_same_fingerprint(client, style):
    first = validate(client, deck=ST1).get_json()
    exported = client.post(
        "/api/v1/decks/export", json={"format": "dcg", "deck": ST1, "style": style}
    )
    assert exported.status_code == 200
    data = exported.get_json()
    assert ExportResponseSchema().validate(data) == {} and data["style"] == style
    again = validate(client, decklist=data["content"]).get_json()
    assert again["deck"]["fingerprint"] == first["deck"]["fingerprint"]


def test_export_deck_code_is_dcg_only(client):
    body = {"format": "digibattle", "decklist": "1 ST-01", "style": "deck-code"}
    response = client.post("/api/v1/decks/export", json=body)
    assert (
        response.status_code == 422
        and response.get_json()["error"]["code"] == "style-not-supported"
    )


def test_formats(client):
    data = client.get("/api/v1/formats").get_json()
    assert FormatListSchema().validate(data) == {}
    assert {f["id"] for f in data["data"]} >= {
        "dcg",
        "dbe",
        "digibattle",
        "dmcg",
        "dmcg-tournament",
        "dmcg-ultimate",
    }
    assert data["errors"] == []


def test_format_detail_has_dated_lists(client):
    data = client.get("/api/v1/formats/dcg").get_json()
    assert FormatSchema().validate(data) == {} and data["id"] == "dcg"
    first = data["lists"][0]
    assert first["effective"] == "2021-04-01" and first["limits"][0]["card"] == "BT2-047"
    assert any(not c["enforced"] and c["doubt"] for c in data["lists"])


def test_cards_list_object(client):
    data = client.get("/api/v1/cards?game=dcg&q=agumon").get_json()
    assert CardListSchema().validate(data) == {}
    assert data["total"] >= 1 and data["page"] == 1 and data["has_more"] is (data["total"] > 50)
    assert {"game", "number", "name", "kind", "level"} <= set(data["data"][0])


def test_cards_whole_pool_paginates(client):
    first = client.get("/api/v1/cards?game=dcg").get_json()
    assert first["total"] == 4391 and len(first["data"]) == 50 and first["has_more"] is True
    last = client.get("/api/v1/cards?game=dcg&page=88").get_json()
    assert len(last["data"]) == 41 and last["has_more"] is False


def test_card_by_any_spelling(client):
    response = client.get("/api/v1/cards/dcg/st01-3")
    data = response.get_json()
    assert response.status_code == 200 and CardSchema().validate(data) == {}
    assert data["number"] == "ST1-03" and data["name"] == "Agumon"


def test_health(client):
    assert client.get("/api/v1/health").get_json() == {"status": "ok", "version": "0.1.0"}


def test_openapi_document(client):
    data = client.get("/api/v1/openapi.json").get_json()
    assert data["openapi"].startswith("3.")
    assert {
        "/decks/validate",
        "/decks/validate-batch",
        "/decks/export",
        "/formats",
        "/cards",
        "/health",
    } <= set(data["paths"])


def test_organizer_formats_through_the_api(app, client):
    from pathlib import Path

    folder = Path(app.config["FORMATS_DIR"])
    (folder / "sealed.toml").write_text(
        'id = "dcg-sealed"\nextends = "dcg"\nmain_size = 40\ncopy_limit = "none"\n'
    )
    (folder / "broken.toml").write_text('id = "dcg"\nextends = "dcg"\n')
    data = client.get("/api/v1/formats").get_json()
    assert "dcg-sealed" in {f["id"] for f in data["data"]}
    assert data["errors"] == [
        {"file": "broken.toml", "message": "id 'dcg' is a built-in format; choose another id"}
    ]
    report = validate(client, decklist="40 ST1-03").get_json()
    assert report["legal"] is False
    sealed = client.post(
        "/api/v1/decks/validate", json={"format": "dcg-sealed", "decklist": "40 ST1-03"}
    ).get_json()
    assert sealed["legal"] is True and sealed["format"]["id"] == "dcg-sealed"
    assert client.get("/formats").status_code == 200
