"""Line, Entry and Stack are named tuples: equal and hashed by every field, never by
identity."""

from __future__ import annotations

import pytest

from rules.model import Card, Entry, Stack
from rules.read import Line, Reading

AGUMON = Card("dcg", "BT1-010", "Agumon", "digimon")
GABUMON = Card("dcg", "BT1-020", "Gabumon", "digimon")
READING = Reading(4, "BT1-010", "Agumon")

# (class, the fields of one value, another value for each field in turn)
CASES = [
    (Entry, (AGUMON, 4, "main", 3), (GABUMON, 3, "eggs", 4)),
    (Stack, (AGUMON, 4, (3,)), (GABUMON, 3, (3, 7))),
    (
        Line,
        (7, "4 Agumon BT1-010", "card", 4, ("BT1-010",), "Agumon", "main", None, (), None),
        (8, "4 Agumon BT1-10", "unparsed", 3, ("BT1-10",), "Agu", "eggs", "too long",
         (READING,), 2),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("cls", "fields", "_"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_equal_fields_make_equal_values(cls, fields, _):
    one, two = cls(*fields), cls(*fields)
    assert one == two and not one != two
    assert hash(one) == hash(two)
    assert len({one, two}) == 1


@pytest.mark.parametrize(
    ("cls", "fields", "changed", "at"),
    [(cls, fields, changed, at) for cls, fields, changed in CASES for at in range(len(fields))],
    ids=lambda c: getattr(c, "__name__", str(c)),
)
def test_a_value_differing_in_any_field_is_another_value(cls, fields, changed, at):
    other = (*fields[:at], changed[at], *fields[at + 1 :])
    assert cls(*fields) != cls(*other)


def test_a_stack_names_its_first_line():
    assert Stack(AGUMON, 4, (3, 9)).line == 3
    assert Stack(AGUMON, 4).line is None
