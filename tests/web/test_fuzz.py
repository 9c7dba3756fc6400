"""Abuse of the validate endpoint: random text, odd Unicode, NUL bytes, huge and negative
counts, unknown fields, random JSON. Never a 500, never an exception."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.schemas import ReportSchema

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
FORMATS = st.sampled_from(["dcg", "dbe", "digibattle", "dmcg", "dmcg-tournament"])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@FUZZ
@given(FORMATS, st.text(max_size=400))
def test_any_text_gets_a_report(client, format_id, text):
    response = client.post("/api/v1/decks/validate", json={"format": format_id, "decklist": text})
    assert response.status_code == 200
    assert ReportSchema().validate(response.get_json()) == {}


@FUZZ
@given(JSON)
def test_any_json_body_gets_a_clear_answer(client, body):
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code in (200, 400, 422)
    assert response.is_json


@FUZZ
@given(
    FORMATS,
    st.dictionaries(
        st.sampled_from(["main", "eggs", "destiny", "partner", "side"]), JSON, max_size=4
    ),
)
def test_any_structured_deck_gets_a_clear_answer(client, format_id, deck):
    response = client.post("/api/v1/decks/validate", json={"format": format_id, "deck": deck})
    assert response.status_code in (200, 422)


@pytest.mark.parametrize(
    "text",
    [
        "4 ST1-03\x00\x00",
        "\u202e4 ST1-03",
        "４ ＳＴ１-０３",
        "1000000000000 ST1-03",
        "-4 ST1-03",
        "4 " + "𝔄" * 5000,
        "\ud7ff" * 10,
        "4 ST1-03\r\n4 ST1-02\r",
        "DCG" + "A" * 5000,
        "[" * 5000,
    ],
    ids=[
        "nul",
        "bidi",
        "fullwidth",
        "huge-count",
        "negative",
        "long-name",
        "surrogate-edge",
        "crlf",
        "bogus-deck-code",
        "deep-json",
    ],
)
def test_odd_input(client, text):
    response = client.post("/api/v1/decks/validate", json={"format": "dcg", "decklist": text})
    assert response.status_code == 200


def test_a_100000_line_decklist_is_refused_quickly(client):
    text = "1 ST1-03\n" * 100_000
    response = client.post("/api/v1/decks/validate", json={"format": "dcg", "decklist": text})
    assert response.status_code in (413, 422)


def test_a_10_mb_body_gets_413(client):
    body = b'{"format": "dcg", "decklist": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    response = client.post("/api/v1/decks/validate", data=body, content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "body-too-large"


def test_unknown_fields_are_ignored_at_the_top(client):
    response = client.post(
        "/api/v1/decks/validate", json={"format": "dcg", "decklist": "4 ST1-03", "extra": 1}
    )
    assert response.status_code == 200
