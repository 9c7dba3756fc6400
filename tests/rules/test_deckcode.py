"""DCG deck codes: exact on every shared test vector, round trips, clear errors."""

import json

import pytest
from conftest import DATA
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.deckcode import CodeEntry, DeckCode, DeckCodeError, decode, encode, looks_like_deck_code

VECTORS_FILE = DATA / "dcg" / "dcg_deckcode_test_vectors.json"
VECTORS = json.loads(VECTORS_FILE.read_text())["vectors"] if VECTORS_FILE.exists() else []


def entries(items):
    return [(e["number"], e["count"], e.get("parallel", 0)) for e in items]


def as_tuples(items):
    return [(e.number, e.count, e.parallel) for e in items]


@pytest.mark.parametrize(
    "vector", VECTORS, ids=[f"v{v['decoded']['version']}-{i}" for i, v in enumerate(VECTORS)]
)
def test_vector_decodes_exactly(vector):
    expected = vector["decoded"]
    code = decode(vector["code"])
    assert (code.version, code.language, code.name) == (
        expected["version"],
        expected["language"],
        expected["name"],
    )
    assert as_tuples(code.digi_eggs) == entries(expected["digi_eggs"])
    assert as_tuples(code.deck) == entries(expected["deck"])
    assert as_tuples(code.sideboard) == entries(expected.get("sideboard", []))


@pytest.mark.parametrize(
    "vector", VECTORS, ids=[f"v{v['decoded']['version']}-{i}" for i, v in enumerate(VECTORS)]
)
def test_vector_reencodes_to_itself(vector):
    assert encode(decode(vector["code"])) == vector["code"]


def test_vectors_present():
    if not VECTORS:
        pytest.skip(f"{VECTORS_FILE} is absent: vector tests skipped")
    assert len(VECTORS) == 19


@pytest.mark.parametrize("version", [0, 1, 2, 3, 4, 5])
def test_hand_built_deck_round_trips(version):
    deck = DeckCode(
        version=version,
        language="en" if version >= 3 else None,
        digi_eggs=(CodeEntry("ST1-01", 4),),
        deck=(
            CodeEntry("BT1-010", 4),
            CodeEntry("BT1-085", 2, 1),
            CodeEntry("P-123", 1),
            CodeEntry("ST1-03", 3),
        ),
        sideboard=(CodeEntry("EX1-021", 2),) if version >= 2 else (),
        name="Test deck",
    )
    again = decode(encode(deck))
    assert again == deck


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("XYZ123", "starts with DCG"),
        ("DCG!!!", "base64url"),
        ("DCG", "too short"),
        (
            "DCGAREdU1QxIEHBU1QxIE_CwcHBwUHBwUFBwcHBQUFTdGFydGVyIERlY2ssIEdhaWEgUmVkIFtTVC0",
            "checksum",
        ),
        ("DCGAQAA", "too short"),
    ],
    ids=["prefix", "base64", "empty", "truncated", "tiny"],
)
def test_malformed_codes(code, words):
    with pytest.raises(DeckCodeError, match=words):
        decode(code)


def test_looks_like_deck_code():
    assert looks_like_deck_code(
        " DCGAREdU1QxIEHBU1QxIE_CwcHBwUHBwUFBwcHBQUFTdGFydGVyIERlY2ssIEdhaWEgUmVkIFtTVC0xXQ "
    )
    assert not looks_like_deck_code("DCG code with spaces")
    assert not looks_like_deck_code("4 BT1-010")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_decode_never_raises_anything_else_on_text(text):
    try:
        decode(text)
    except DeckCodeError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80))
def test_decode_never_raises_anything_else_on_bytes(data):
    import base64

    try:
        decode("DCG" + base64.urlsafe_b64encode(data).decode().rstrip("="))
    except DeckCodeError:
        pass
