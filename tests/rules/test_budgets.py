"""Budgets are per request, never per item (contract "Limits"): suggestions for unknown
names and the entries of deck links, codes, TTS arrays and Limitless objects, shared by
every deck of a request, and a list of links read in time linear in its size."""

import json
import time
from datetime import date

import pytest
from fixture_cards import POOLS

from rules.budget import ENTRIES, SUGGESTIONS, Budget
from rules.builtin import BUILT_IN
from rules.validate import check_structured, check_text

ON = date(2024, 1, 1)
DCG = BUILT_IN["dcg"]


def _unknown(deck: int, names: int = 20) -> str:
    return "\n".join(f"1 Zqx{deck}x{n} Unknownmon" for n in range(names))


def _suggested(report) -> int:
    unknown = [v for v in report.violations if v.code == "unknown-card"]
    return sum(1 for v in unknown if "no suggestion looked for" not in v.message)


def test_suggestions_are_bounded_per_request_not_per_deck():
    budget = Budget()
    reports = [check_text(DCG, POOLS["dcg"], _unknown(deck), ON, budget) for deck in range(5)]
    assert sum(_suggested(r) for r in reports) == SUGGESTIONS
    # Every name is still reported.
    assert sum(1 for r in reports for v in r.violations if v.code == "unknown-card") == 100
    left_out = [v.message for r in reports for v in r.violations if v.code == "unknown-card"]
    assert "only the first 20 unknown names of a request get one" in left_out[-1]


def test_structured_entries_share_the_same_budget():
    budget = Budget()
    text = check_text(DCG, POOLS["dcg"], _unknown(0, 15), ON, budget)
    entries = {"main": [{"card": f"Zqy{n} Unknownmon", "count": 1} for n in range(15)]}
    structured = check_structured(DCG, POOLS["dcg"], entries, None, ON, budget)
    assert _suggested(text) + _suggested(structured) == SUGGESTIONS


def test_a_fresh_request_gets_a_fresh_budget():
    first = check_text(DCG, POOLS["dcg"], _unknown(0, 25), ON)
    second = check_text(DCG, POOLS["dcg"], _unknown(1, 25), ON)
    assert _suggested(first) == _suggested(second) == SUGGESTIONS


def _dg_lines(lines: int, per_line: int = 89) -> str:
    """Lines of DigimonMeta `dg=` values, each just under the 1,000-character line limit."""
    return "\n".join("dg=" + "a".join(["4nST1-03"] * per_line) for _ in range(lines))


def _egman_lines(lines: int, per_line: int = 95) -> str:
    link = "https://deckbuilder.egmanevents.com/?deck=" + ",".join(["ST1-03:4"] * per_line)
    return "\n".join(link for _ in range(lines))


@pytest.mark.parametrize("make", [_dg_lines, _egman_lines], ids=["digimonmeta", "egman"])
def test_a_megabyte_of_deck_links_is_read_within_the_entry_budget(make):
    text = make(1000)
    assert 700_000 < len(text) < 1_000_001
    start = time.process_time()
    report = check_text(DCG, POOLS["dcg"], text, ON)
    assert time.process_time() - start < 1.5
    read = sum(stack.count for stack in report.deck.stacks("main")) // 4
    assert ENTRIES - 100 < read <= ENTRIES
    # What is over the budget is reported, line by line, never dropped without a word.
    over = [v for v in report.violations if "hold more than 20,000 cards" in v.message]
    assert over and all(v.code == "unparsed-line" for v in over)
    assert len({e.line for e in report.deck.entries}) + len(over) == 1000


@pytest.mark.parametrize("make", [_dg_lines, _egman_lines], ids=["digimonmeta", "egman"])
def test_reading_links_is_linear_in_their_entries(make):
    """Eight times the entries cost well under 64 times the time, read and judged (a
    ratio: a deck that copies the earlier entries of a card for each new one fails it).
    Linear is about 9 times; the bound of 25 leaves room for a neighbour slowing one of
    the two measurements (a bound of 10 on four times the entries failed once so)."""

    def seconds(text: str) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            check_text(DCG, POOLS["dcg"], text, ON, Budget(entries=10**9))
            best = min(best, time.process_time() - start)
        return best

    short, long = seconds(make(50)), seconds(make(400))
    assert long < max(short, 1e-3) * 25


def test_deck_codes_take_from_the_same_budget():
    from fixture_cards import ST1_COUNTS

    from rules.deckcode import CodeEntry, DeckCode, encode

    code = encode(DeckCode.new(deck=tuple(CodeEntry(n, c) for n, c in ST1_COUNTS)))
    # Enough for what the code may hold (a byte an entry, asked before it is decoded),
    # not twice: the first read takes its 15 entries, the second finds too few left.
    budget = Budget(entries=len(code) * 3 // 4)
    assert check_text(DCG, POOLS["dcg"], code, ON, budget).deck.entries
    refused = check_text(DCG, POOLS["dcg"], code, ON, budget)
    assert not refused.deck.entries
    assert [v.code for v in refused.violations][:1] == ["unparsed-line"]


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(["Exported from test", *["ST1-03"] * 300_000]),
        json.dumps({"digimon": [1] * 300_000}, separators=(",", ":")),
        json.dumps({"digimon": [{"count": 4, "id": "ST1-03"}] * 30_000}),
    ],
    ids=["tts", "limitless-junk", "limitless-entries"],
)
def test_a_huge_tts_array_or_limitless_object_is_one_problem_and_fast(text):
    """Found by an attack run: a one-line array of 300,000 entries was read entry by entry
    (a 104 MB response, 460 MB more memory): it takes from the request's entry budget."""
    start = time.process_time()
    report = check_text(DCG, POOLS["dcg"], text, ON)
    assert time.process_time() - start < 1.0
    assert not report.deck.entries
    [problem] = [v for v in report.violations if v.code == "unparsed-line"]
    assert "hold more than 20,000 cards" in problem.message and len(problem.message) < 400
    assert all(len(v.message) < 600 for v in report.violations)


def test_tts_arrays_take_from_the_same_budget():
    tts = json.dumps(["Exported from test", *["ST1-03"] * 4, *["ST1-02"] * 4])
    budget = Budget(entries=9)
    assert check_text(DCG, POOLS["dcg"], tts, ON, budget).deck.entries
    assert not check_text(DCG, POOLS["dcg"], tts, ON, budget).deck.entries


def test_a_message_names_each_unread_line_once_and_at_most_ten():
    from rules.model import Unresolved, unread_words

    same = tuple(Unresolved(1, "x", 1) for _ in range(500))
    assert unread_words(same) == "500 more on line 1"
    many = tuple(Unresolved(n, "x", 2) for n in range(1, 301))
    assert unread_words(many) == "600 more on lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 290 more"
    assert unread_words((Unresolved(4, "x", 1), Unresolved(9, "y", None))) == (
        "whatever stands on lines 4, 9"
    )


@pytest.mark.parametrize(
    "line",
    [
        "4 BT1-010 4 4 BT1-011 4 4 BT1-012 4 4 BT1-013 4 " + "4 " * 440,
        "4 ST1-03 " + "4 " * 490,
    ],
    ids=["four-numbers", "one-number"],
)
def test_a_list_of_lines_of_many_counts_is_read_fast(line):
    """Found by an attack run: each count-shaped part of such a line could be the count,
    so 1,000 of them (930 KB) took 18 s. A line of more parts than one entry holds is
    `unparsed-line` now, read in time linear in its length."""
    text = "\n".join([line] * 1000)
    start = time.process_time()
    report = check_text(DCG, POOLS["dcg"], text, ON)
    assert time.process_time() - start < 1.0
    problems = [v for v in report.violations if v.code == "unparsed-line"]
    assert len(problems) == 1000
    assert "more counts and card numbers than one card entry holds" in problems[0].message


@pytest.mark.parametrize(
    "line", ["a 1 b 2 c 3 d 4 e 5 f 6 g", "1. a 1 b 2 c 3 d 4 e 5 f 6 g"], ids=["plain", "listed"]
)
def test_thirteen_parts_with_or_without_a_list_number_say_why(line):
    """A review: the parts limit assumed a list number, so 13 parts without one were
    "no card number or name here" instead of saying what is wrong."""
    [problem] = check_text(DCG, POOLS["dcg"], line, ON).violations[:1]
    assert "more counts and card numbers than one card entry holds" in problem.message


def test_a_huge_deck_code_is_refused_before_it_is_decoded():
    """An attack run: a 1 MB code (version 0, 693,000 entries) was decoded whole before
    the entry budget was asked: 3 s and +136 MB. A code's entries take a byte each at
    least, so one longer than the budget allows is not decoded."""
    import base64

    groups = bytearray()
    for _ in range(11_000):
        groups += b"BT1 " + bytes([(2 << 6) | 63]) + bytes(63)
    raw = bytearray([0, sum(groups) & 0xFF, 0]) + groups
    code = "DCG" + base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")
    start = time.process_time()
    report = check_text(DCG, POOLS["dcg"], code, ON)
    assert time.process_time() - start < 0.2
    [problem] = [v for v in report.violations if v.code == "unparsed-line"]
    assert "hold more than 20,000 cards" in problem.message


@pytest.mark.parametrize(
    "text",
    [
        "[" + ",".join(["[]"] * 2_000_000) + "]",
        '{"digimon": [' + ",".join(["[]"] * 2_000_000) + "]}",
    ],
    ids=["tts", "limitless"],
)
def test_a_huge_json_array_is_refused_before_it_is_parsed(text):
    """An attack run: 15 MB of `[[],[],...]` was parsed whole (+384 MB, 2.4 s) before it
    was found not to be a TTS array of strings; its commas bound what it holds."""
    start = time.process_time()
    report = check_text(DCG, POOLS["dcg"], text, ON)
    assert time.process_time() - start < 0.3
    assert any("hold more than 20,000 cards" in v.message for v in report.violations)
