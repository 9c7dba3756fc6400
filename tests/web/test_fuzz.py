"""Abuse of the validate endpoint: random text, odd Unicode, NUL bytes, huge and negative
counts, unknown fields, random JSON. Never a 500, never an exception: a report that
matches its schema, or an error of the contract's shape."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.schemas import ReportSchema

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
FORMATS = st.sampled_from(["dcg", "dbe", "digibattle", "dmcg", "dmcg-tournament", "dmcg-ultimate"])
JSON = st.recursive(
    # Only values JSON can carry: Infinity and NaN are not JSON (see test_non_json_numbers).
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
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
    response = client.post(
        "/api/v1/decks/validate", data=json.dumps(body), content_type="application/json"
    )
    # Valid JSON that is not an object is malformed for this API; an object is read.
    assert_clear_answer(response, (200, 422) if isinstance(body, dict) else (400,))


@FUZZ
@given(
    FORMATS,
    st.dictionaries(
        st.sampled_from(["main", "eggs", "destiny", "partner", "side"]), JSON, max_size=4
    ),
)
def test_any_structured_deck_gets_a_clear_answer(client, format_id, deck):
    response = client.post("/api/v1/decks/validate", json={"format": format_id, "deck": deck})
    assert_clear_answer(response, (200, 422))


def assert_clear_answer(response, statuses: tuple[int, ...]) -> None:
    """A report of the contract's shape, or an error of the contract's shape."""
    assert response.status_code in statuses
    body = response.get_json()
    if response.status_code == 200:
        assert ReportSchema().validate(body) == {}
        assert body["legal"] == (not body["violations"])
    else:
        assert set(body) == {"error"}
        assert body["error"]["code"] and body["error"]["message"]


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN"])
def test_non_json_numbers_are_malformed_json(client, number):
    entry = '{"card": "ST1-03", "count": ' + number + "}"
    body = '{"format": "dcg", "deck": {"main": [' + entry + "]}}"
    response = client.post("/api/v1/decks/validate", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "malformed-json"


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
    assert_clear_answer(response, (200,))
    body = response.get_json()
    # Odd text is never a legal deck by accident, and every non-blank line is accounted for.
    assert body["legal"] is False


def test_a_100000_line_decklist_is_refused_before_any_parsing(client, monkeypatch):
    """Refused on its line count alone: the parser is never reached."""
    import rules.validate

    def must_not_parse(*args, **kwargs):
        raise AssertionError("a decklist over the line limit was parsed")

    monkeypatch.setattr(rules.validate, "parse", must_not_parse)
    text = "1 ST1-03\n" * 100_000
    response = client.post("/api/v1/decks/validate", json={"format": "dcg", "decklist": text})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "decklist-too-long"
    assert error["details"] == {"lines": 100_000, "limit": 1000}


def test_a_10_mb_body_gets_413(client):
    body = b'{"format": "dcg", "decklist": "' + b"x" * (10 * 1024 * 1024) + b'"}'
    response = client.post("/api/v1/decks/validate", data=body, content_type="application/json")
    assert response.status_code == 413 and response.get_json()["error"]["code"] == "body-too-large"


def test_unknown_fields_are_ignored_at_the_top(client):
    response = client.post(
        "/api/v1/decks/validate", json={"format": "dcg", "decklist": "4 ST1-03", "extra": 1}
    )
    assert response.status_code == 200
