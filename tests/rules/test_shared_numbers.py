"""Card numbers shared by reprints (DCG rule 2-3-4-5): RB1-004 Agumon is "also treated as"
P-009, so the two share one copy limit and P-009's list entries (Q&A Q4075, Q4078,
Q4079). Run over every shipped DCG format, on the shipped card list."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest
from fixture_cards import entries

from cardpool.cards import row_to_card
from cardpool.shipped import shipped_rows
from rules.builtin import BUILT_IN
from rules.lists import BANNED, RESTRICTED, CardRef, Change
from rules.pool import CardIndex
from rules.validate import check_structured

DAY = date(2026, 5, 1)
DCG_FORMATS = [f for f in BUILT_IN.values() if f.game == "dcg"]
FILLER = [("BT1-010", 4), ("BT1-011", 4), ("BT1-012", 4), ("BT1-013", 4), ("BT1-014", 4)]


@pytest.fixture(scope="module")
def index() -> CardIndex:
    return CardIndex("dcg", [row_to_card(row) for row in shipped_rows("dcg")[1]])


def judge(fmt, index, main, on=DAY):
    report = check_structured(fmt, index, {"main": entries(main)}, None, on)
    return [v for v in report.violations if v.code in ("copy-limit", "banned", "restricted")]


def with_list(fmt, number, status):
    """The format with one more list entry, in force from 2000-01-01."""
    change = Change(date(2000, 1, 1), None, ((CardRef(number, "test entry"), status),))
    return dataclasses.replace(fmt, lists=fmt.lists.with_extra([change]))


@pytest.mark.parametrize("fmt", DCG_FORMATS, ids=lambda f: f.id)
@pytest.mark.parametrize(
    ("main", "over"),
    [
        ([("P-009", 4)], None),
        ([("RB1-004", 4)], None),
        ([("P-009", 2), ("RB1-004", 2)], None),
        ([("P-009", 3), ("RB1-004", 2)], ("P-009", "RB1-004")),
        ([("RB1-004", 5)], ("RB1-004",)),
        ([("P-010", 4), ("RB1-007", 1)], ("P-010", "RB1-007")),
        ([("P-058", 1), ("RB1-006", 4)], ("P-058", "RB1-006")),
        ([("P-009", 4), ("RB1-006", 4)], None),
        ([("P-009", 4), ("RB1-005", 4)], None),
    ],
    ids=[
        "promo-4",
        "reprint-4",
        "two-and-two",
        "three-and-two",
        "reprint-5",
        "greymon",
        "gammamon",
        "different-numbers",
        "same-name-other-card",
    ],
)
def test_copy_limit_counts_the_shared_number(fmt, index, main, over):
    found = judge(fmt, index, [*FILLER, *main])
    if over is None:
        assert found == []
        return
    [violation] = found
    assert violation.code == "copy-limit" and violation.cards == over


def test_the_message_names_each_printing_and_the_shared_number(index):
    [violation] = judge(BUILT_IN["dcg"], index, [("P-009", 3), ("RB1-004", 2)])
    assert violation.message == (
        "You have 5 copies of card number P-009 in your main deck (3 P-009 Agumon, "
        "2 RB1-004 Agumon (treated as P-009)): a printing treated as P-009 counts as P-009, "
        "and the limit for this card number is 4. Remove 1 copy."
    )


@pytest.mark.parametrize("fmt", DCG_FORMATS, ids=lambda f: f.id)
@pytest.mark.parametrize(
    ("main", "bad"),
    [
        ([("P-009", 1)], False),
        ([("RB1-004", 1)], False),
        ([("P-009", 1), ("RB1-004", 1)], True),
        ([("RB1-004", 2)], True),
    ],
    ids=["promo-1", "reprint-1", "one-each", "reprint-2"],
)
def test_restricted_counts_the_shared_number(fmt, index, main, bad):
    found = judge(with_list(fmt, "P-009", RESTRICTED), index, main)
    assert [v.code for v in found] == (["restricted"] if bad else [])
    if bad:
        assert set(found[0].cards) == {number for number, _ in main}
        assert "P-009" in found[0].message


@pytest.mark.parametrize("fmt", DCG_FORMATS, ids=lambda f: f.id)
@pytest.mark.parametrize("main", [[("RB1-004", 1)], [("P-009", 1), ("RB1-004", 2)]])
def test_a_reprint_of_a_banned_number_is_banned(fmt, index, main):
    found = judge(with_list(fmt, "P-009", BANNED), index, main)
    [violation] = found
    assert violation.code == "banned"
    assert set(violation.cards) == {number for number, _ in main}
    assert "RB1-004 Agumon (treated as P-009)" in violation.message


@pytest.mark.parametrize("fmt", DCG_FORMATS, ids=lambda f: f.id)
def test_a_banned_card_without_reprints_reads_as_before(fmt, index):
    [violation] = judge(with_list(fmt, "P-009", BANNED), index, [("P-009", 2)])
    assert violation.message.startswith("P-009 Agumon is banned since 2000-01-01")
