"""The validate and batch bodies read without marshmallow give what the schemas give.

`deckcheck.check_bodies.load_validate` / `load_batch` / `batch_deck` read the common body
directly and hand anything else to the schema. For bodies on both sides of every
field's limit, the answer (status and JSON) must be the one the schema path gives.
"""

from contextlib import contextmanager

import pytest
from fixture_cards import ST1_DECK
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deckcheck.api as api
import deckcheck.bodies as bodies
import deckcheck.check_bodies as check_bodies
import deckcheck.schemas.deck_input as schemas

TEXT = "4 Agumon ST1-03\n4 ST1-01"


@contextmanager
def _schema_only():
    """The API with its shortcuts off: every body is loaded by its schema, and every
    structured entry by marshmallow's nested schema (DeckEntries' plain loop off)."""
    plain_format = check_bodies._plain_format
    check_bodies._plain_format = lambda data: None
    plain_entries = schemas._plain_entries
    schemas._plain_entries = lambda entries: False
    batch_deck = check_bodies.batch_deck

    def through_schema(item):
        schema = check_bodies._batch_deck_schema
        deck = bodies.load(schema, item, "invalid-deck", "This deck is malformed.")
        return check_bodies.service.as_payload(deck)

    check_bodies.batch_deck = through_schema
    try:
        yield
    finally:
        check_bodies._plain_format, check_bodies.batch_deck = plain_format, batch_deck
        schemas._plain_entries = plain_entries


def _both(client, path, body):
    fast = client.post(path, json=body)
    with _schema_only():
        slow = client.post(path, json=body)
    return fast, slow


VALIDATE_BODIES = [
    {"format": "dcg", "decklist": TEXT},
    {"format": "dcg", "decklist": TEXT, "date": "2021-01-01"},
    {"format": "dcg", "decklist": TEXT, "date": None},
    {"format": "dcg", "decklist": TEXT, "date": "2021-13-01"},
    {"format": "dcg", "decklist": TEXT, "date": 20210101},
    {"format": "dcg", "decklist": TEXT, "extra": 1},
    {"format": "", "decklist": TEXT},
    {"format": "x" * 80, "decklist": TEXT},
    {"format": "x" * 81, "decklist": TEXT},
    {"format": 3, "decklist": TEXT},
    {"decklist": TEXT},
    {"format": "dcg", "decklist": 4},
    {"format": "dcg", "decklist": TEXT, "deck": None},
    {"format": "dcg", "decklist": TEXT, "deck": ST1_DECK},
    {"format": "dcg", "deck": ST1_DECK},
    {"format": "dcg", "decklist": "\n".join(["1 ST1-01"] * 1001)},
    {"format": "dcg", "decklist": None, "deck": ST1_DECK},
    {"format": "dcg", "deck": ST1_DECK, "date": "BT2"},
    {"format": "dcg", "deck": ST1_DECK, "date": "2021-13-01"},
    {"format": "dcg", "deck": None},
    {"format": "dcg", "deck": []},
]


def _entry(card: object = "ST1-01", count: object = 4, **more) -> dict:
    return {"card": card, "count": count, **more}


# Structured decks on both sides of every entry limit (card 1-200 characters, count an
# int 1-1000, exactly the two keys), of the partner (a string up to 200, or null) and
# of the section names.
STRUCTURED = [
    {"main": [_entry()]},
    {"main": [_entry(count=1000)]},
    {"main": [_entry(count=1001)]},
    {"main": [_entry(count=0)]},
    {"main": [_entry(count=True)]},
    {"main": [_entry(count=4.0)]},
    {"main": [_entry(count="4")]},
    {"main": [_entry(card="")]},
    {"main": [_entry(card="x" * 200)]},
    {"main": [_entry(card="x" * 201)]},
    {"main": [_entry(card=None)]},
    {"main": [_entry(side=1)]},
    {"main": [{"card": "ST1-01"}]},
    {"main": ["ST1-01"]},
    {"main": _entry()},
    {"main": [], "eggs": [_entry(card="ST1-01", count=1)]},
    {"mian": [_entry()]},
    {"main": [_entry()], "partner": None},
    {"main": [_entry()], "partner": "ST1-01"},
    {"main": [_entry()], "partner": "x" * 201},
    {"main": [_entry()], "partner": 3},
    {},
]
VALIDATE_BODIES += [{"format": "dcg", "deck": deck} for deck in STRUCTURED]


@pytest.mark.parametrize("body", VALIDATE_BODIES)
def test_validate_shortcut_answers_as_the_schema(client, body):
    fast, slow = _both(client, "/api/v1/decks/validate", body)
    assert (fast.status_code, fast.get_json()) == (slow.status_code, slow.get_json())


BATCH_DECKS = [
    {"id": 1, "decklist": TEXT},
    {"decklist": TEXT},
    {"id": "a", "decklist": 4},
    {"id": "b", "decklist": TEXT, "deck": None},
    {"id": "c", "deck": ST1_DECK},
    {"id": "d"},
    {"id": "e", "decklist": TEXT, "deck": ST1_DECK},
    {"id": "f", "decklist": "\n".join(["1 ST1-01"] * 1001)},
    *({"id": f"s{n}", "deck": deck} for n, deck in enumerate(STRUCTURED)),
]


@pytest.mark.parametrize(
    "body",
    [
        {"format": "dcg", "decks": BATCH_DECKS},
        {"format": "dcg", "date": "2021-01-01", "decks": BATCH_DECKS},
        {"format": "dcg", "date": "yesterday", "decks": BATCH_DECKS},
        {"format": "dcg", "decks": [*BATCH_DECKS, "not a deck"]},
        {"format": "dcg", "decks": {"id": 1}},
        {"format": "", "decks": BATCH_DECKS},
        {"decks": BATCH_DECKS},
    ],
)
def test_batch_shortcut_answers_as_the_schema(client, body):
    fast, slow = _both(client, "/api/v1/decks/validate-batch", body)
    assert (fast.status_code, fast.get_json()) == (slow.status_code, slow.get_json())


def test_the_shortcuts_are_taken(client, monkeypatch):
    """The equality above means nothing if the common body still meets a schema."""

    def refuse(*args, **kwargs):
        raise AssertionError("the schema was asked")

    monkeypatch.setattr(check_bodies, "load", refuse)
    structured = {"id": 2, "deck": ST1_DECK}
    batch = {"format": "dcg", "decks": [{"id": 1, "decklist": TEXT}, structured]}
    assert client.post("/api/v1/decks/validate-batch", json=batch).status_code == 200
    body = {"format": "dcg", "decklist": TEXT, "date": "2021-01-01"}
    assert client.post("/api/v1/decks/validate", json=body).status_code == 200
    body = {"format": "dcg", "deck": ST1_DECK, "date": "2021-01-01"}
    assert client.post("/api/v1/decks/validate", json=body).status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {"legal": True, "deck": {"sections": {"main": {"count": 4}}}, "name": "Ünïcode ✓"},
        {"fields": {0: ["Not a valid string."]}},  # an int key: orjson alone refuses it
        {"id": 2**70},  # beyond orjson's integers
    ],
)
def test_the_report_writer_gives_jsonify_s_bytes(app, data):
    """`_json` writes reports without jsonify's detour, and must not differ from it."""
    with app.test_request_context():
        assert api._json(data).get_data() == api.jsonify(data).get_data()


# A property over the same limits: bodies drawn from every field's values on both sides of
# its limit (and of the wrong type), answered the same by the shortcut and the schema.
_CARDS = st.sampled_from(["ST1-01", "ST1-03", "", "x" * 200, "x" * 201, None, 3])
_COUNTS = st.sampled_from([1, 4, 1000, 1001, 0, -1, True, 4.0, "4", None])
_ENTRY = st.one_of(
    st.builds(_entry, card=_CARDS, count=_COUNTS),
    st.sampled_from(["ST1-01", {"card": "ST1-01"}, _entry(side=1), None]),
)
_DECK = st.one_of(
    st.dictionaries(
        st.sampled_from(["main", "egg", "side", "partner", "Main", ""]),
        st.one_of(st.lists(_ENTRY, max_size=3), st.sampled_from(["ST1-01", None, {}])),
        max_size=3,
    ),
    st.sampled_from([None, [], "deck"]),
)
_MISSING = object()
_FIELDS = {
    "format": st.sampled_from(["dcg", "", "x" * 80, "x" * 81, 3, None, _MISSING]),
    "decklist": st.sampled_from([TEXT, "", 4, None, _MISSING, _MISSING]),
    "deck": st.one_of(_DECK, st.just(_MISSING), st.just(_MISSING)),
    "date": st.sampled_from(["2021-01-01", "2021-13-01", "BT2", 20210101, None, _MISSING]),
    "extra": st.sampled_from([1, _MISSING, _MISSING, _MISSING]),
}
_BODIES = st.fixed_dictionaries(_FIELDS).map(
    lambda drawn: {k: v for k, v in drawn.items() if v is not _MISSING}
)


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=_BODIES)
def test_validate_shortcut_answers_as_the_schema_for_any_body(client, body):
    fast, slow = _both(client, "/api/v1/decks/validate", body)
    assert (fast.status_code, fast.get_json()) == (slow.status_code, slow.get_json())
