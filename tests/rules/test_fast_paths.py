"""The hot path's shortcuts give exactly what the general reader and resolver give.

`rules.parse._quick_line` reads the common `count name number` line without building
its readings, `rules.parse._number_first_line` builds the readings of a `number name
count` line directly, and `Resolver.quick` resolves the first without asking every
reading. On
generated lines, against a pool made to trip them (names that hold a count, a number,
a bracketed side; aliases; a card with no name), the result must be the same with the
shortcuts and without them: the lines, the deck, the problems and the warnings.

The shortcuts are turned off by swapping module functions, which compiled callers do
not see: the tests that swap them are `source_only` (the compiled build's run of the
suite leaves them out; they hold the source both builds come from).
"""

from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules.parse as reader
from rules import numbers
from rules.model import Card
from rules.parse import parse
from rules.pool import CardIndex
from rules.resolve import Resolver, resolve_text


def _card(number: str, name: str, kind: str = "digimon", **more) -> Card:
    return Card("dcg", number, name, kind, **more)


POOL = CardIndex(
    "dcg",
    [
        _card("BT1-010", "Agumon"),
        _card("BT1-011", "Agumon"),
        _card("BT1-020", "Gabumon"),
        _card("BT1-030", "Garurumon", aliases=("Gabumon",)),
        _card("BT1-040", "4 Agumon", aliases=("Tokomon", "Agumon")),
        _card("P-999", "Agumon BT1-010"),
        _card("P-998", "4 Gabumon BT1-020"),
        _card("P-997", "4 Gabumon"),
        _card("P-996", "2 Garurumon"),
        _card("BT10-009", "Shoutmon X4"),
        _card("BT2-001", "Koromon", "digi-egg"),
        _card("BT1-050", ""),
        _card("BT1-060", "Tsunomon", name_ja="ツノモン"),
        _card("BT15-076", "Myotismon ACE"),
        _card("BT9-020", "Gabumon (X Antibody)"),
        _card("EX2-046", "ADR-02 Searcher", max_copies=50),
        # Test-only: two printings whose numbers fold to one key; the later one wins it.
        _card("BT3-001", "Impmon"),
        _card("BT3-01", "Impmon"),
    ],
)

COUNTS = st.sampled_from(["4", "1", "04", "2", "0", "1001", "12345678", "x4", "1.", "-2"])
WORDS = st.sampled_from(
    ["Agumon", "Gabumon", "Garurumon", "Tokomon", "Koromon", "Shoutmon", "X4", "4", "(X",
     "Antibody)", "Myotismon", "ACE", "DCG", "[DCG]", "(DCG)", "-", "!", "(-)", "x", "X",
     "*", "Tsunomon", "Agumon:", "Searcher", "ADR-02", "[Moon]", "|", "()"]
)  # fmt: skip
NUMBERS = st.sampled_from(
    ["BT1-010", "(BT1-010)", "[BT1-010]", "bt1-10", "BT1-0100", "BT1-011", "BT1-020",
     "(BT1-020)", "BT1-030", "(BT1-030)", "BT1-040", "P-999", "(P-999", "BT1-050",
     "BT10-009", "BT2-001", "BT1-060", "BT15-076", "BT9-020", "(BT9-020)", "EX2-046",
     "BT1-010_P1", "ZZ9-999", "BT3-001", "BT3-01", "(BT3-001)"]
)  # fmt: skip


@contextmanager
def _general_only():
    """The reader and resolver with every shortcut turned off."""
    quick_line, number_first = reader._quick_line, reader._number_first_line
    quick, number_only = Resolver.quick, Resolver.number_only
    reader._quick_line = lambda number, text, section: None
    reader._number_first_line = lambda number, text, section: None
    Resolver.quick = lambda self, line: None
    Resolver.number_only = lambda self, line: None
    try:
        yield
    finally:
        reader._quick_line, reader._number_first_line = quick_line, number_first
        Resolver.quick, Resolver.number_only = quick, number_only


def _lines(parsed):
    """Each line's fields, with its readings however they are kept (built or tokens)."""
    return [(*line._fields()[:8], line.unread_count, line.all_readings()) for line in parsed.lines]


def _verdict(resolved):
    return resolved.deck, resolved.problems, resolved.notes


def _same_as_general(text):
    """Read and resolve `text` with and without the shortcuts; both must agree. The
    general path's parse is returned for further checks."""
    fast = parse(text)
    fast_resolved = resolve_text(fast, POOL)
    with _general_only():
        slow = parse(text)
        slow_resolved = resolve_text(slow, POOL)
    assert _lines(fast) == _lines(slow)
    assert _verdict(fast_resolved) == _verdict(slow_resolved)
    return slow


@pytest.mark.source_only
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(COUNTS, st.lists(WORDS, max_size=4), NUMBERS), min_size=1, max_size=4))
def test_shortcuts_give_what_the_general_path_gives(entries):
    text = "\n".join(" ".join([count, *words, number]) for count, words, number in entries)
    slow = _same_as_general(text)
    assert all(line.tokens is None for line in slow.lines)


@pytest.mark.source_only
@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(NUMBERS, st.lists(WORDS, max_size=4), COUNTS), min_size=1, max_size=4))
def test_number_first_lines_read_as_the_general_path_reads_them(entries):
    """`BT11-005 Koromon 4`: the older digimoncard.app export, number first, count last."""
    text = "\n".join(" ".join([number, *words, count]) for number, words, count in entries)
    _same_as_general(text)


@pytest.mark.source_only
def test_the_number_first_shortcut_is_taken():
    """Its equality above means nothing if it is never taken (and each reading counts)."""
    text = "BT2-001 Koromon 4\nBT9-020 Gabumon (X Antibody) 2\nBT1-060 (DCG) Tsunomon 3"
    calls = []
    original = reader._number_first_line

    def spy(number, line, section):
        found = original(number, line, section)
        calls.append(found is not None)
        return found

    reader._number_first_line = spy
    try:
        lines = parse(text).lines
    finally:
        reader._number_first_line = original
    assert calls == [True, True, True]
    assert [(line.count, line.numbers, line.name) for line in lines] == [
        (4, ("BT2-001",), "Koromon"),
        (2, ("BT9-020",), "Gabumon (X Antibody)"),
        (3, ("BT1-060",), "Tsunomon"),
    ]
    assert [len(line.readings) for line in lines] == [4, 4, 4]


@pytest.mark.source_only
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(NUMBERS, st.integers(1, 5)), min_size=1, max_size=6))
def test_number_only_lines_resolve_as_the_general_path_resolves_them(entries):
    """Tabletop Simulator arrays: one reading per id, a number and no name."""
    import json

    ids = [number.strip("()[]") for number, copies in entries for _ in range(copies)]
    text = json.dumps(["Exported from a test", *ids])
    fast = resolve_text(parse(text), POOL)
    with _general_only():
        slow = resolve_text(parse(text), POOL)
    assert parse(text).style == "tts"
    assert _verdict(fast) == _verdict(slow)
    line = parse(text).lines[0]
    known = POOL.by_number(line.numbers[0])
    assert Resolver(POOL).number_only(line) is known


@pytest.mark.parametrize("number", sorted(POOL.cards))
def test_a_number_typed_as_printed_finds_what_any_other_spelling_finds(number):
    # The printed spelling is one look-up; a lower-case one goes by key and width.
    assert POOL.by_number(number) is POOL.by_number(number.lower())


def test_the_shortcuts_are_taken_on_a_common_line():
    """Not a test that cannot fail: the equality above means nothing if nothing is quick."""
    parsed = parse(
        "4 Koromon BT2-001\n2 Gabumon (X Antibody) (BT9-020)\n3 bt1-60\n"
        "1 Tsunomon      (DCG) (BT1-060)"
    )
    assert [line.tokens is not None for line in parsed.lines] == [True] * 4
    assert [Resolver(POOL).quick(line) for line in parsed.lines] == [
        POOL.by_number("BT2-001"),
        POOL.by_number("BT9-020"),
        POOL.by_number("BT1-060"),
        POOL.by_number("BT1-060"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "4 Agumon BT1-040",  # `4 Agumon` is BT1-040's own name: 1 copy, or 4 of Agumon?
        "4 Agumon BT1-010",  # `Agumon BT1-010` is the name of P-999
        "4 Gabumon BT1-020",  # the whole line is the name of P-998
        "3 Gabumon (BT1-030)",  # BT1-030 is also called Gabumon; Gabumon alone is BT1-020
        "2 Garurumon (BT1-030)",  # `2 Garurumon` is the name of P-996
    ],
)
def test_a_shortcut_declines_where_another_reading_names_a_card(text):
    """Each of the resolver's questions, asked where its answer is yes."""
    line = parse(text).lines[0]
    assert line.tokens is not None and Resolver(POOL).quick(line) is None
    problems = resolve_text(parse(text), POOL).problems
    assert [p.code for p in problems] == ["unparsed-line"]
    with _general_only():
        assert resolve_text(parse(text), POOL).problems == problems


def _pattern_says(token: str) -> bool:
    return len(token) <= numbers.MAX_TOKEN and numbers._NUMBER.fullmatch(token) is not None


@pytest.mark.parametrize(
    "token",
    [
        "BT1-010",
        "bt1-10",
        "ST01-01",
        "P-007",
        "EX9-013",
        "BT1-010_P1",
        "BT1-010a_P1_x2",
        "ST-44s",
        "ABCDE123-1234z",
        "ABCDEF-1",
        "BT1234-1",
        "BT1-01234",
        "BT1-010ab",
        "BT1-010_",
        "BT1-010__P1",
        "BT1_010",
        "-010",
        "BT1-",
        "BT1--010",
        "1BT-010",
        "ＢＴ1-010",
        "BT١-010",
        "BT1-010\n",
        "",
        "A-1",
        "A" * 30 + "-1" + "_x" * 4,
        "B@1-1",
        "B[1-1",
        "B`1-1",
        "B{1-1",
        "BT/-1",
        "BT1-:",
        "BT1-1{",
        "BT1-1_@",
    ],
)
def test_the_number_scan_answers_as_the_pattern(token):
    assert numbers._scan_number(token) == _pattern_says(token)


# Tokens near the pattern's edges: runs of letters and digits a little too long or
# short, zero, one or two dashes, a trailing letter or two, `_` groups, empty groups.
_NUMBERISH = st.tuples(
    st.text("BTxz", min_size=1, max_size=6),
    st.text("019", max_size=4),
    st.sampled_from(["-", "-", "-", "-", "", "--", "_"]),
    st.text("019", min_size=1, max_size=5),
    st.text("Pa", max_size=2),
    st.lists(st.text("P1a", max_size=3), max_size=2),
).map(lambda p: "".join(p[:5]) + "".join("_" + group for group in p[5]))


@settings(max_examples=2000, deadline=None)
@given(
    st.one_of(
        st.text(alphabet="AbZz0189-_é٣ /:@[`{", max_size=45),
        _NUMBERISH,
    )
)
def test_the_number_scan_answers_as_the_pattern_on_generated_tokens(token):
    assert numbers._scan_number(token) == _pattern_says(token)


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        # Starts of name keys holding a digit, the whole key included (a card named `4`
        # would be the reading of `4 (BT1-010)` without the number).
        ("", True), ("4", True), ("4agumon", True), ("4gabumonbt1020", True),
        ("agumonbt", True), ("shoutmonx", True), ("shoutmonx4", True), ("adr02searcher", True),
        # No name key with a digit starts so: digit-free names, or no name at all.
        ("agumonx", False), ("gabumon", False), ("koromon", False), ("5", False),
        ("shoutmonx4x", False), ("impmon", False),
    ],
)  # fmt: skip
def test_a_digit_name_is_found_by_each_of_its_starts(start, expected):
    assert POOL.starts_digit_name(start) is expected


def test_a_card_named_by_its_count_alone_is_found():
    index = CardIndex("dcg", [_card("BT1-010", "Agumon"), _card("P-995", "4")])
    assert index.starts_digit_name("4")
    assert not index.starts_digit_name("4a")
