"""DCG deck codes: exact on every shared test vector, round trips, clear errors."""

import base64
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.deckcode import (
    CodeEntry,
    DeckCode,
    DeckCodeError,
    decode,
    encode,
    looks_like_deck_code,
)

REPO = Path(__file__).resolve().parents[2]
VECTORS_FILE = REPO.parent / "shared" / "data" / "dcg" / "dcg_deckcode_test_vectors.json"
VECTORS = json.loads(VECTORS_FILE.read_text())["vectors"] if VECTORS_FILE.exists() else []
VECTOR_PARAMS = [
    pytest.param(v, id=f"{i}-v{v['decoded']['version']}") for i, v in enumerate(VECTORS)
] or [pytest.param(None, marks=pytest.mark.skip(reason=f"{VECTORS_FILE} is absent"))]

STARTER = (
    "DCGUTtdAJydAUEDAZydAU8DAgMBAwEDAQMBAQEDAQMBAQEBAQMBAwEDAQEBAQ"
    "FTdGFydGVyIERlY2ssIEdhaWEgUmVkIFtTVC0xXQ"
)
BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def expected_entries(items):
    return [(e["number"], e["count"], e.get("parallel", 0)) for e in items]


def as_tuples(entries):
    return [(e.number, e.count, e.parallel) for e in entries]


def code_for(buffer: bytes) -> str:
    return "DCG" + base64.urlsafe_b64encode(buffer).decode().rstrip("=")


def with_checksum(buffer: bytes) -> bytes:
    fixed = bytearray(buffer)
    name_length = fixed[2] & 0x3F if fixed[0] >> 4 >= 5 else fixed[2]
    fixed[1] = sum(fixed[3 : len(fixed) - name_length]) & 0xFF
    return bytes(fixed)


def starter_bytes() -> bytes:
    body = STARTER[3:]
    return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))


@pytest.mark.parametrize("vector", VECTOR_PARAMS)
def test_vector_decodes_exactly(vector):
    expected = vector["decoded"]
    code = decode(vector["code"])
    assert (code.version, code.language, code.name, code.icon) == (
        expected["version"],
        expected["language"],
        expected["name"],
        expected.get("icon"),
    )
    assert as_tuples(code.digi_eggs) == expected_entries(expected["digi_eggs"])
    assert as_tuples(code.deck) == expected_entries(expected["deck"])
    assert as_tuples(code.sideboard) == expected_entries(expected.get("sideboard", []))


@pytest.mark.parametrize("vector", VECTOR_PARAMS)
def test_vector_reencodes_to_itself(vector):
    assert encode(decode(vector["code"])) == vector["code"]


@pytest.mark.parametrize("vector", VECTOR_PARAMS)
def test_every_truncation_of_a_vector_is_refused_cleanly(vector):
    # A code cut anywhere (a paste that lost its end) must never read as a smaller deck.
    code = vector["code"]
    for end in range(len(code)):
        with pytest.raises(DeckCodeError) as raised:
            decode(code[:end])
        assert str(raised.value), end


@pytest.mark.parametrize("cut", [1, 2, 3, 4, 8, 16])
def test_a_truncated_starter_code_is_refused(cut):
    with pytest.raises(DeckCodeError, match="checksum|base64url"):
        decode(STARTER[:-cut])


@pytest.mark.parametrize("version", [0, 1, 2, 3, 4, 5])
def test_hand_built_deck_round_trips(version):
    deck = DeckCode(
        version=version,
        language="en" if version >= 3 else None,
        digi_eggs=(CodeEntry("ST1-01", 4),),
        deck=(
            CodeEntry("BT1-010", 4),
            CodeEntry("BT1-085", 2, 1),
            CodeEntry("BT10-001", 3),
            CodeEntry("P-123", 1),
            CodeEntry("ST1-03", 3),
        ),
        sideboard=(CodeEntry("EX1-021", 2),) if version >= 2 else (),
        name="Test deck ✓",
        icon="BT1-010" if version >= 4 else None,
    )
    assert decode(encode(deck)) == deck


def test_hand_built_entries_in_any_order_keep_their_cards():
    deck = DeckCode.new(
        deck=(
            CodeEntry("ST1-03", 3),
            CodeEntry("BT1-085", 2, 1),
            CodeEntry("P-123", 1),
            CodeEntry("BT1-010", 4),
            CodeEntry("BT6-085", 46),
        ),
        digi_eggs=(CodeEntry("BT2-001", 4),),
        name="shuffled",
    )
    again = decode(encode(deck))
    assert (again.version, again.language) == (5, "en")
    assert sorted(as_tuples(again.deck)) == sorted(as_tuples(deck.deck))
    assert as_tuples(again.digi_eggs) == as_tuples(deck.digi_eggs)
    assert encode(again) == encode(deck)


def test_long_name_is_cut_at_a_character_boundary():
    deck = DeckCode.new(deck=(CodeEntry("BT1-010", 4),), name="é" * 40)
    assert decode(encode(deck)).name == "é" * 31


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (DeckCode(6, None, (), (), (), ""), "version"),
        (DeckCode(0, None, (), (CodeEntry("BT1-010", 5),), (), ""), "copies"),
        (DeckCode(5, "en", (), (CodeEntry("BT1-010", 0),), (), ""), "copies"),
        (DeckCode(5, "en", (), (CodeEntry("BT1-010", 1, 8),), (), ""), "parallel"),
        (DeckCode(5, "en", (), (CodeEntry("Agumon", 1),), (), ""), "card number"),
        (DeckCode(1, None, (), (), (CodeEntry("BT1-010", 1),), ""), "sideboard"),
        (DeckCode(4, "ko", (), (), (), ""), "languages"),
        (DeckCode(2, "en", (), (), (), ""), "no language"),
        (DeckCode(3, "en", (), (), (), "", "BT1-010"), "icon"),
    ],
    ids=["version", "v0-copies", "no-copies", "parallel", "number", "side", "lang", "v2", "icon"],
)
def test_encode_refuses_what_the_format_cannot_hold(deck, words):
    with pytest.raises(DeckCodeError, match=words):
        encode(deck)


def test_malformed_inputs():
    starter = starter_bytes()
    cards_only = bytearray(starter[: -len("Starter Deck, Gaia Red [ST-1]")])
    cards_only[2] &= 0xC0
    bad_set = bytearray(cards_only)
    bad_set[4] = 0x3F
    cases = {
        "": "starts with DCG",
        "XYZ123": "starts with DCG",
        "DCG!!!": "base64url",
        "DCG A": "base64url",
        "DCGA": "base64url",
        "DCG": "too short",
        STARTER[:-8]: "checksum",
        code_for(starter[:1] + bytes([starter[1] ^ 1]) + starter[2:]): "checksum",
        code_for(with_checksum(bytes(cards_only[:-1]))): "ends in the middle",
        code_for(with_checksum(bytes([0x61, 0, 0, 0]))): "version 6",
        code_for(with_checksum(bytes([0x53, 0, 0, 0]))): "holds only 0 entries",
        code_for(with_checksum(bytes([0x50, 0, 9, 0]))): "name length",
        code_for(with_checksum(bytes(bad_set))): "impossible character",
        code_for(with_checksum(bytes([0x50, 0, 0, 0, 0x01, 0x01, 0, 0x0F]))): "digits",
        code_for(with_checksum(bytes([0x40, 0, 2, 0x80]) + b"AB")): "icon",
        code_for(with_checksum(bytes([0x00, 0, 0]) + b"bt1 \x01\x00")): "set code",
    }
    for code, words in cases.items():
        with pytest.raises(DeckCodeError, match=words):
            decode(code)


def test_empty_deck_is_a_valid_code():
    assert decode(encode(DeckCode(0, None, (), (), (), ""))) == DeckCode(0, None, (), (), (), "")


def test_looks_like_deck_code():
    assert looks_like_deck_code(f"  {STARTER}\n")
    assert not looks_like_deck_code("DCG code with spaces")
    assert not looks_like_deck_code("DCG")
    assert not looks_like_deck_code("4 BT1-010")


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_decode_raises_only_deck_code_errors_on_text(text):
    try:
        decode(text)
    except DeckCodeError as err:
        assert str(err)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=BASE64URL, max_size=120))
def test_decode_raises_only_deck_code_errors_on_base64url(body):
    try:
        decode("DCG" + body)
    except DeckCodeError as err:
        assert str(err)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=80), st.booleans())
def test_decode_raises_only_deck_code_errors_on_checksummed_bytes(data, fix_checksum):
    if fix_checksum and len(data) >= 3:
        data = with_checksum(data)
    try:
        decode(code_for(data))
    except DeckCodeError as err:
        assert str(err)


ENTRY = st.builds(
    lambda set_code, width, number, count, parallel: CodeEntry(
        f"{set_code}-{number % 10**width:0{width}d}", count, parallel
    ),
    st.sampled_from(["BT1", "BT10", "ST1", "P", "EX2", "LM", "RB1"]),
    st.integers(1, 4),
    st.integers(0, 9999),
    st.integers(1, 256),
    st.integers(0, 7),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(ENTRY, max_size=15),
    st.lists(ENTRY, max_size=60),
    st.lists(ENTRY, max_size=10),
    st.text(max_size=20),
)
def test_any_current_deck_round_trips(eggs, main, side, name):
    deck = DeckCode.new(deck=tuple(main), digi_eggs=tuple(eggs), sideboard=tuple(side), name=name)
    code = encode(deck)
    again = decode(code)
    assert looks_like_deck_code(code)
    for before, after in ((eggs, again.digi_eggs), (main, again.deck), (side, again.sideboard)):
        assert sorted(as_tuples(before)) == sorted(as_tuples(after))
    assert encode(again) == code
