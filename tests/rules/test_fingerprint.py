"""The fingerprint: the contract's recipe, invariant under order, spelling and style."""

import hashlib
from datetime import date

from fixture_cards import POOLS, entries
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.builtin import BUILT_IN
from rules.validate import check_structured, check_text

ON = date(2024, 1, 1)
LINES = ["4 Agumon ST1-03", "46 BT11-061", "4 Koromon ST1-01", "2 Gaia Force ST1-16"]


def fp(text):
    return check_text(BUILT_IN["dcg"], POOLS["dcg"], text, ON).fingerprint


def test_recipe_from_the_contract():
    expected_text = "dcg\neggs ST1-01 4\nmain BT11-061 46\nmain ST1-03 4\nmain ST1-16 2"
    expected = "sha256:" + hashlib.sha256(expected_text.encode()).hexdigest()
    assert fp("\n".join(LINES)) == expected


def test_same_cards_any_style():
    structured = check_structured(
        BUILT_IN["dcg"],
        POOLS["dcg"],
        {
            "main": entries([("ST1-03", 4), ("BT11-061", 46), ("ST1-16", 2)]),
            "eggs": entries([("ST1-01", 4)]),
        },
        None,
        ON,
    ).fingerprint
    assert structured == fp("\n".join(LINES))
    assert fp("ST1-03 Agumon 4\nBT11-061 x46\nKoromon (ST1-01) x4\n2x st1-16") == structured
    assert fp("2 ST1-03\n2 ST1-03\n46 BT11-061\n4 ST1-01\n2 ST1-16") == structured


def test_unresolved_lines_are_not_part_of_it():
    assert fp("\n".join(LINES) + "\n4 Notamon\n???") == fp("\n".join(LINES))


@settings(max_examples=60, deadline=None)
@given(st.permutations(LINES), st.sampled_from([str.lower, str.upper, str]))
def test_invariant_under_order_and_case(lines, case):
    assert fp("\n".join(case(line) for line in lines)) == fp("\n".join(LINES))
