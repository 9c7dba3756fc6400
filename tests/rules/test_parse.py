"""The decklist parser: every style players paste, and it never raises."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse import parse, parse_line


@pytest.mark.parametrize(
    ("text", "count", "numbers", "name"),
    [
        ("4 Agumon BT1-010", 4, ("BT1-010",), "Agumon"),
        ("4 BT1-010", 4, ("BT1-010",), None),
        ("4x BT1-010", 4, ("BT1-010",), None),
        ("Agumon (BT1-010) x4", 4, ("BT1-010",), "Agumon"),
        ("BT1-010 Agumon 4", 4, ("BT1-010",), "Agumon"),
        ("4 Agumon", 4, (), "Agumon"),
        ("Agumon BT1-010", 1, ("BT1-010",), "Agumon"),
        ("4 (BT22-002)", 4, ("BT22-002",), None),
        (
            "1 MetalTyrannomon                      (DCG) (BT11-055)",
            1,
            ("BT11-055",),
            "MetalTyrannomon",
        ),
        ("2 Agumon [DCG] (BT1-010)", 2, ("BT1-010",), "Agumon"),
        ("2 Myotismon ACE           BT15-076", 2, ("BT15-076",), "Myotismon ACE"),
        ("BT11-064 Greymon (X Antibody) 1", 1, ("BT11-064",), "Greymon (X Antibody)"),
        ("1 Ukkomon                    P-123", 1, ("P-123",), "Ukkomon"),
        ("4 ADR-02 Searcher EX2-046", 4, ("ADR-02", "EX2-046"), "Searcher"),
        ("BT1-010 x2", 2, ("BT1-010",), None),
        ("3 st-44s", 3, ("st-44s",), None),
        ("1 Antiramon [Moon]", 1, (), "Antiramon [Moon]"),
        ("4 BT1-010_P1", 4, ("BT1-010_P1",), None),
        ("4 X Antibody BT9-109", 4, ("BT9-109",), "X Antibody"),
        ("- 2 Gabumon BT2-020", 2, ("BT2-020",), "Gabumon"),
    ],
)
def test_card_lines(text, count, numbers, name):
    line = parse_line(1, text)
    assert (line.kind, line.count, line.numbers, line.name) == ("card", count, numbers, name)


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("Main", "main"),
        ("Main Deck", "main"),
        ("Deck", "main"),
        ("Digi-Egg", "eggs"),
        ("Digi-Egg Deck", "eggs"),
        ("Eggs", "eggs"),
        ("Egg Deck", "eggs"),
        ("Destiny", "destiny"),
        ("Destiny Zone", "destiny"),
        ("// Egg Deck", "eggs"),
        ("Main Deck:", "main"),
        ("// Destiny Zone:", "destiny"),
        ("Digi-Egg Deck (5)", "eggs"),
        ("Sideboard", "side"),
    ],
)
def test_headers(text, section):
    line = parse_line(1, text)
    assert (line.kind, line.section) == ("header", section)


@pytest.mark.parametrize(
    "text",
    ["// Digimon Deck List", "// DigimonCard.io Deck List", "# my best deck", "//Digimon DeckList"],
)
def test_comments(text):
    assert parse_line(1, text).kind == "comment"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("4", "a count with no card"),
        ("???", "no card number or name"),
        ("0 Agumon", "from 1 to 1000"),
        ("1000000000000 BT1-010", "from 1 to 1000"),
        ("-----", "no card number or name"),
    ],
)
def test_unparsed_lines(text, problem):
    line = parse_line(3, text)
    assert line.kind == "unparsed" and problem in line.problem


def test_partner_line():
    parsed = parse("Partner: ACC-001\n// Destiny Zone\n1 ACC-007\n// Main Deck\n4 ACC-001")
    assert parsed.partner.numbers == ("ACC-001",) and parsed.has_headers
    assert [(line.section, line.numbers) for line in parsed.cards()] == [
        ("destiny", ("ACC-007",)),
        ("main", ("ACC-001",)),
    ]


def test_tabletop_simulator_array():
    text = json.dumps(["Exported from https://digimoncard.dev", "BT15-006", "BT15-006", "P-123"])
    parsed = parse(text)
    assert parsed.style == "tts" and parsed.name == "Exported from https://digimoncard.dev"
    found = [(line.numbers[0], line.count) for line in parsed.cards()]
    assert found == [("BT15-006", 2), ("P-123", 1)]


def test_json_that_is_not_tts_is_read_as_lines():
    assert parse('["a", 1]').style == "text"


def test_line_numbers_count_blank_lines():
    parsed = parse("\n\n4 BT1-010\n\n???")
    assert [(line.number, line.kind) for line in parsed.lines] == [(3, "card"), (5, "unparsed")]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_never_raises(text):
    parse(text)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["4 BT1-010", "DCG", "[", "\x00", "Partner:", "// Eggs", "x4", "９", "ＢＴ１-０１０"]
        ),
        max_size=20,
    )
)
def test_parser_never_raises_on_odd_fragments(parts):
    parse("\n".join(parts))
    parse(" ".join(parts))


def test_limitless_json():
    text = json.dumps(
        {
            "digimon": [
                {"count": 4, "name": "Agumon", "set": "BT1", "number": "010"},
                {"count": 2, "name": "Greymon"},
            ],
            "egg": [{"count": 4, "id": "ST1-01"}],
            "option": [{"count": 0, "name": "Bad"}, "junk"],
        }
    )
    parsed = parse(text)
    assert parsed.style == "limitless"
    assert [(line.kind, line.count, line.numbers, line.name) for line in parsed.lines] == [
        ("card", 4, ("BT1-010",), "Agumon"),
        ("card", 2, (), "Greymon"),
        ("unparsed", 1, (), None),
        ("unparsed", 1, (), None),
        ("card", 4, ("ST1-01",), None),
    ]
