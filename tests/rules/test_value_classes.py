"""Line, Entry and Stack are plain classes (native when compiled) that behave as the
named tuples they replaced: equal and hashed by every field, never by identity."""

from __future__ import annotations

import pytest

from rules.model import Card, Entry, Stack
from rules.parse import Line, Reading

AGUMON = Card("dcg", "BT1-010", "Agumon", "digimon")
GABUMON = Card("dcg", "BT1-020", "Gabumon", "digimon")
READING = Reading(4, "BT1-010", "Agumon")

# (class, the fields of one value, another value for each field in turn)
CASES = [
    (Entry, (AGUMON, 4, "main", 3), (GABUMON, 3, "eggs", 4)),
    (Stack, (AGUMON, 4, (3,)), (GABUMON, 3, (3, 7))),
    (
        Line,
        (7, "4 Agumon BT1-010", "card", 4, ("BT1-010",), "Agumon", "main", None, (), None,
         ("4", "Agumon", "BT1-010")),
        (8, "4 Agumon BT1-10", "unparsed", 3, ("BT1-10",), "Agu", "eggs", "too long",
         (READING,), 2, None),
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


@pytest.mark.parametrize(("cls", "fields", "_"), CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_a_value_is_never_equal_to_a_tuple_or_another_class(cls, fields, _):
    value = cls(*fields)
    assert value != fields
    assert all(value != other(*f) for other, f, _ in CASES if other is not cls)


def test_a_stack_names_its_first_line():
    assert Stack(AGUMON, 4, (3, 9)).line == 3
    assert Stack(AGUMON, 4).line is None
