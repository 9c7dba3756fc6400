"""`POST /api/v1/decks/export` leaves unread lines out and lists them in `warnings`."""

import pytest
from fixture_cards import ST1_TEXT as ST1

from deckcheck.schemas import ExportResponseSchema

UNREAD = ST1.replace("4 ST1-13", "2 ST1-13\n2 Mental Trainig\nx3 ???")


def export(client, style="text", **body):
    response = client.post(
        "/api/v1/decks/export", json={"format": "dcg", "style": style, "date": "2021-01-01", **body}
    )
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    assert ExportResponseSchema().validate(data) == {}
    return data


@pytest.mark.parametrize("style", ["text", "tts", "deck-code"])
def test_export_lists_what_it_left_out(client, style):
    data = export(client, style, decklist=UNREAD)
    assert [(w["code"], w["line"], w["text"], w["count"]) for w in data["warnings"]] == [
        ("left-out", 15, "2 Mental Trainig", 2),
        ("left-out", 16, "x3 ???", 3),
    ]
    assert data["warnings"][0]["message"] == (
        "Line 15 (“2 Mental Trainig”, 2 cards) named no card, so the export leaves it out: "
        "fix the line and export again."
    )
    assert "Mental" not in data["content"]


def test_export_of_the_readable_part_reimports_to_its_fingerprint(client):
    content = export(client, decklist=UNREAD)["content"]
    again = client.post(
        "/api/v1/decks/validate", json={"format": "dcg", "decklist": content, "date": "2021-01-01"}
    ).get_json()
    first = client.post(
        "/api/v1/decks/validate", json={"format": "dcg", "decklist": UNREAD, "date": "2021-01-01"}
    ).get_json()
    assert again["deck"]["fingerprint"] == first["deck"]["fingerprint"]
    assert again["deck"]["unresolved"] == []


def test_structured_entries_that_name_no_card_are_warnings_without_a_line(client):
    deck = {"main": [{"card": "ST1-03", "count": 4}, {"card": "Nosuchmon", "count": 3}]}
    warnings = export(client, deck=deck)["warnings"]
    assert [(w["line"], w["text"], w["count"]) for w in warnings] == [(None, "Nosuchmon", 3)]
    assert warnings[0]["message"].startswith("An entry (“Nosuchmon”, 3 cards) named no card")


def test_a_readable_deck_exports_without_warnings(client):
    assert export(client, decklist=ST1)["warnings"] == []


def test_the_api_document_describes_the_warnings(client):
    document = client.get("/api/v1/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    name = next(n for n in schemas if n.startswith("ExportResponse"))
    assert "warnings" in schemas[name]["required"]
    assert "warnings" in schemas[name]["properties"]
