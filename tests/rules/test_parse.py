"""The decklist parser: every style players paste; every line accounted for, in linear time.

Line shapes are read against a small pool of real numbers and names (facts only), since
the pool decides between readings.
"""

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.model import Card
from rules.pool import CardIndex
from rules.read import parse, parse_line, parse_structured
from rules.resolve import resolve


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
        ("4 ADR-02 Searcher EX2-046", 4, ("ADR-02",), "Searcher EX2-046"),
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


def test_a_tts_array_keeps_every_string_that_is_not_an_id():
    text = json.dumps(["Exported from https://digimoncard.dev", "BT1-010", "Agumon", "???"])
    parsed = parse(text)
    assert parsed.name == "Exported from https://digimoncard.dev"
    found = [(line.kind, line.numbers, line.name) for line in parsed.lines]
    assert found == [("card", ("BT1-010",), None), ("card", (), "Agumon"), ("unparsed", (), None)]


def test_a_pretty_printed_tts_array_places_each_card_on_its_line():
    lines = ["[", '  "Exported from x",', '  "BT1-010",', '  "BT1-010",', '  "Partner: BT1-020",']
    lines += ['  "ZZ9-999", "BT1-011",', '  "Antiramon [Moon]"]']
    parsed = parse("\n\n" + "\n".join(lines))
    found = [(line.number, line.numbers or line.name) for line in parsed.lines]
    assert found == [
        (5, ("BT1-010",)),
        (8, ("ZZ9-999",)),
        (8, ("BT1-011",)),
        (9, "Antiramon [Moon]"),
    ]
    assert [line.number for line in parsed.partners] == [7]


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"digimon": "4 Agumon"}, "the digimon section is not a list of card entries"),
        ({"egg": [], "sideboard": [{"count": 1, "name": "Agumon"}]}, "'sideboard' section"),
    ],
)
def test_a_limitless_section_deckcheck_cannot_read_is_reported(data, problem):
    parsed = parse(json.dumps({**data, "name": "metadata is not a card"}))
    assert parsed.style == "limitless"
    assert [(line.kind, problem in (line.problem or "")) for line in parsed.lines] == [
        ("unparsed", True)
    ]


def test_json_that_is_not_tts_is_read_as_lines():
    assert parse('["a", 1]').style == "text"


@pytest.mark.parametrize("text", ["[]", '["Exported from https://digimoncard.dev"]'])
def test_an_array_without_a_card_is_a_line_to_report(text):
    # Read as TTS it gave no line at all: the paste vanished without a word.
    parsed = parse(text)
    assert parsed.style == "text" and [line.number for line in parsed.lines] == [1]


@pytest.mark.parametrize(
    ("text", "line"),
    [("DCG0", 1), ("\rDCG0", 2), ("\n\n  DCG0", 3), ('\r\n["BT1-010"]', 2), ('["BT1-010"]', 1)],
)
def test_a_deck_code_or_tts_array_after_blank_lines_keeps_its_line_number(text, line):
    # A problem in a pasted code must name the line it is on, not line 1.
    assert {found.number for found in parse(text).lines} == {line}


def test_line_numbers_count_blank_lines():
    parsed = parse("\n\n4 BT1-010\n\n???")
    assert [(line.number, line.kind) for line in parsed.lines] == [(3, "card"), (5, "unparsed")]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_every_line_is_accounted_for(text):
    """Each non-blank line is a card entry, a header, a comment or a reported problem."""
    resolved = resolve(parse(text), POOL)
    read = {e.line for e in resolved.deck.entries} | {v.line for v in resolved.problems}
    read |= {u.line for u in resolved.deck.unresolved}
    kept = {
        line.number
        for line in parse(text).lines
        if line.kind in ("header", "comment", "partner", "card")
    }
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() and unicodedata.normalize("NFKC", raw).replace("\x00", "").strip():
            assert number in read or number in kept
            if number in kept and number not in read:
                line = next(x for x in parse(text).lines if x.number == number)
                assert line.kind in ("header", "comment", "partner")


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


def _card(number, name, kind="digimon", max_copies=None):
    return Card("dcg", number, name, kind, "3", max_copies=max_copies)


POOL = CardIndex(
    "dcg",
    [
        _card("BT1-001", "Yokomon", "digi-egg"),
        _card("BT1-010", "Agumon"),
        _card("BT1-019", "Gabumon"),
        _card("BT1-020", "Groundramon"),
        _card("BT1-085", "Tai Kamiya", "tamer"),
        _card("BT1-086", "Matt Ishida", "tamer"),
        _card("BT1-100", "Grace Cross Freezer", "option"),
        _card("BT10-009", "Shoutmon X4"),
        _card("BT15-076", "Myotismon"),
        _card("EX2-046", "ADR-02 Searcher", max_copies=50),
        _card("P-104", "Mental Training", "option"),
        _card("EX6-018", "Test Egman One"),
        _card("BT19-069", "Test Egman Two"),
        _card("BT24-005", "Test Meta One"),
        _card("BT14-056", "Test Meta Two"),
    ],
)


def read(text):
    resolved = resolve(parse(text), POOL)
    entries = [(e.card.number, e.count) for e in resolved.deck.entries]
    return entries, resolved


@pytest.mark.parametrize(
    ("text", "entries"),
    [
        ("4 Agumon BT1-010", [("BT1-010", 4)]),
        ("4 BT1-010", [("BT1-010", 4)]),
        ("4x BT1-010", [("BT1-010", 4)]),
        ("Agumon (BT1-010) x4", [("BT1-010", 4)]),
        ("BT1-010 Agumon 4", [("BT1-010", 4)]),
        ("4 Agumon", [("BT1-010", 4)]),
        ("Agumon BT1-010", [("BT1-010", 1)]),
        ("1. 4 BT1-020", [("BT1-020", 4)]),
        ("> 4 BT1-001", [("BT1-001", 4)]),
        ("- 4 BT1-010", [("BT1-010", 4)]),
        ("* 4 BT1-010", [("BT1-010", 4)]),
        ("• 4 BT1-010", [("BT1-010", 4)]),
        ("BT1-086 (2)", [("BT1-086", 2)]),
        ("BT1-085 *2", [("BT1-085", 2)]),
        ("BT1-010 ×2", [("BT1-010", 2)]),
        ("BT1-010 x2", [("BT1-010", 2)]),
        ("Agumon 4 BT1-010", [("BT1-010", 4)]),
        ("BT10-009 Shoutmon X4", [("BT10-009", 1)]),
        ("46 ADR-02 Searcher", [("EX2-046", 46)]),
        ("４ Ａｇｕｍｏｎ ＢＴ１－０１０", [("BT1-010", 4)]),
        ("2 Myotismon ACE BT15-076", [("BT15-076", 2)]),
        (
            "https://deckbuilder.egmanevents.com/?deck=EX6-018:4,BT19-069:2&type=digimon",
            [("EX6-018", 4), ("BT19-069", 2)],
        ),
        (
            "https://digimonmeta.com/deckinfo2?dn=x&dg=4nBT24-005a4nBT14-056",
            [("BT24-005", 4), ("BT14-056", 4)],
        ),
        ("4nBT24-005a2nBT14-056", [("BT24-005", 4), ("BT14-056", 2)]),
        ("dg=4nBT24-005", [("BT24-005", 4)]),
    ],
)
def test_contract_line_shapes(text, entries):
    found, resolved = read(text)
    assert found == entries and not resolved.problems


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("-2 BT1-010", "unparsed-line", "below 1"),
        ("4 BT1-010 BT1-019", "unparsed-line", "several card numbers"),
        ("4 BT1-0100", "unknown-card", "BT1-0100"),
        ("4", "unparsed-line", "count with no card"),
        ("x" * 1001, "unparsed-line", "longer than 1,000"),
        ("2 Mental Trainig", "unknown-card", "Mental Training"),
    ],
)
def test_lines_that_are_reported_not_counted(text, code, words):
    found, resolved = read(text)
    assert found == []
    [problem] = resolved.problems
    assert problem.code == code and words in problem.message and problem.line == 1
    [unread] = resolved.deck.unresolved
    assert unread.line == 1


def test_unresolved_keeps_the_count():
    _, resolved = read("4 Agumon BT1-010\n2 Mental Trainig\n-2 BT1-010")
    assert [tuple(u) for u in resolved.deck.unresolved] == [
        (2, "2 Mental Trainig", 2),
        (3, "-2 BT1-010", None),
    ]


def test_two_readings_that_disagree_are_unparsed():
    """Both 1 "Shoutmon X4" and 4 "Shoutmon" name real cards exactly: ask."""
    pool = CardIndex("dcg", [_card("BT10-009", "Shoutmon X4"), _card("BT1-030", "Shoutmon")])
    resolved = resolve(parse("Shoutmon X4"), pool)
    [problem] = resolved.problems
    assert (
        problem.code == "unparsed-line"
        and "is X4 the count or part of the name?" in problem.message
    )


@pytest.mark.parametrize(
    ("text", "mismatch"),
    [
        ("4 Koromon BT1-001", "Line 1 says Koromon, but BT1-001 is Yokomon"),
        ("4 Gabumon BT1-010", "Line 1 says Gabumon, but BT1-010 is Agumon"),
        ("2 Mental Trainig P-104", None),
        ("2 Myotismon ACE BT15-076", None),
        ("1 Agumon [DCG] (BT1-010)", None),
    ],
)
def test_name_mismatch(text, mismatch):
    found, resolved = read(text)
    assert len(found) == 1 and not resolved.problems
    warned = [n.message for n in resolved.notes if n.code == "name-mismatch"]
    assert warned == ([] if mismatch is None else [warned[0]])
    if mismatch:
        assert warned[0].startswith(mismatch)


def test_cards_with_no_name_never_mismatch():
    pool = CardIndex("dcg", [Card("dcg", "BT1-010", "", "digimon")])
    resolved = resolve(parse("4 Koromon BT1-010"), pool)
    assert not resolved.notes and resolved.deck.entries[0].count == 4


def test_the_issue_paste_counts_4_plus_4():
    found, resolved = read("Agumon 4 BT1-010\n4 Gabumon BT1-010")
    assert found == [("BT1-010", 4), ("BT1-010", 4)]
    assert [n.code for n in resolved.notes] == ["name-mismatch"]


@pytest.mark.parametrize(
    ("card", "number"),
    [("ADR-02 Searcher", "EX2-046"), ("Shoutmon X4", "BT10-009"), ("BT1-010 Agumon", "BT1-010")],
)
def test_structured_entries_read_like_lines(card, number):
    resolved = resolve(parse_structured({"main": [{"card": card, "count": 3}]}), POOL)
    assert [(e.card.number, e.count) for e in resolved.deck.entries] == [(number, 3)]


def test_structured_flip_card_side():
    pool = CardIndex("dbe", [Card("dbe", "ACC-030", "Antiramon", "digimon", "U")])
    resolved = resolve(parse_structured({"main": [{"card": "Antiramon [Moon]", "count": 2}]}), pool)
    assert [(e.card.number, e.count) for e in resolved.deck.entries] == [("ACC-030", 2)]


def test_two_partner_lines_are_both_kept():
    parsed = parse("Partner: ACC-001\nPartner: ACC-023\n4 ACC-001")
    assert [line.numbers for line in parsed.partners] == [("ACC-001",), ("ACC-023",)]


def test_suggestions_are_bounded():
    import time

    text = "\n".join(f"1 Zqx{i} Unknown{i * 7}" for i in range(1000))
    start = time.perf_counter()
    _, resolved = read(text)
    assert time.perf_counter() - start < 2
    asked = [v for v in resolved.problems if "no suggestion looked for" in v.message]
    assert len(resolved.problems) == 1000 and len(asked) == 980


ADVERSARIAL = [
    lambda n: "a" + " " * n + "b",
    lambda n: "1" * n,
    lambda n: "BT1-" * (n // 4),
    lambda n: "BT1-010_" + "a_" * (n // 2),
    lambda n: "x 4 " * (n // 4),
    lambda n: "(" * n,
    lambda n: "4 " + "Agumon " * (n // 7) + "BT1-010",
    lambda n: "4nBT1-010a" * (n // 10),
    lambda n: "// " + "-" * n,
]


def _parse_seconds(text: str) -> float:
    import time

    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        parse_line(1, text)
        best = min(best, time.perf_counter() - start)
    return best


@settings(max_examples=9, deadline=None)
@given(st.sampled_from(range(len(ADVERSARIAL))))
def test_parse_time_per_character_stays_flat(which):
    """Four times the line costs well under sixteen times the time (a ratio, not a timing):
    a quadratic reader fails it, a linear one passes with room to spare."""
    shape = ADVERSARIAL[which]
    short, long = _parse_seconds(shape(240)), _parse_seconds(shape(960))
    assert long < max(short, 20e-6) * 10


def test_a_long_line_costs_one_length_check():
    import time

    start = time.perf_counter()
    line = parse_line(1, "a" + " " * 100_000 + "b")
    assert line.kind == "unparsed" and line.problem == "too long"
    assert time.perf_counter() - start < 0.5


def test_number_pattern_worst_case_is_linear():
    """`_NUMBER` matches a whole token; its parts cannot overlap, so no backtracking."""
    from rules.numbers import find_numbers, is_number

    token = "BT1-010" + "_a" * 5000 + "-"
    assert not is_number(token)
    assert find_numbers(token + " " + "BT1-010_" * 3000) == []


WORDS = st.sampled_from(
    ["Agumon", "Shoutmon", "X4", "4", "x2", "(2)", "BT1-010", "(BT1-010)", "ADR-02", "DCG",
     "[DCG]", "ACE", "-", "Mental", "(X", "Antibody)", "1.", ">", "*2", "×3", "st-44s", "ｘ"]
)  # fmt: skip


TTS_ITEMS = st.one_of(
    st.sampled_from(
        ["Exported from x", "BT1-010", "Agumon", "Antiramon [Moon]", "Partner: BT1-010",
         "// Eggs", "]", "[", ",", '"', "\\", "BT1-010]", "4 Agumon", ""]
    ),
    st.text(max_size=12),
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(TTS_ITEMS, max_size=10), st.sampled_from([None, 2]), st.sampled_from(["", "\r\n"]))
def test_every_tts_string_is_kept_on_a_line_of_the_paste(items, indent, lead):
    text = lead + json.dumps(items, indent=indent)
    parsed = parse(text)
    if parsed.style != "tts":
        return
    last = len(text.splitlines())
    numbers = [line.number for line in (*parsed.lines, *parsed.partners)]
    assert all(1 + len(lead.splitlines()) <= number <= last for number in numbers)
    ids = sum(1 for item in items if item.strip() == "BT1-010")
    assert sum(line.count for line in parsed.lines if line.numbers == ("BT1-010",)) >= ids
    resolve(parsed, POOL)
