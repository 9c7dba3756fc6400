"""rules.sets: the set of a DCG card number, and which sets a pool has not reached yet."""

import pytest

from rules.sets import SetId, is_newer_than_pool, newest_sets, parse_set_code, set_of


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        ("BT1-010", SetId("BT", 1)),
        ("bt01-10", SetId("BT", 1)),
        ("BT1-010_P1", SetId("BT", 1)),
        ("EX13-001", SetId("EX", 13)),
        ("ST1-01", SetId("ST", 1)),
        ("P-001", SetId("P", None)),
        ("LM-062", SetId("LM", None)),
        ("RB1-004", SetId("RB", 1)),
        ("Agumon", None),
        ("-001", None),
        ("B1T-001", None),
        ("BT9999-1", None),
        ("ＢＴ1-010", None),
    ],
)
def test_set_of(number, expected):
    assert set_of(number) == expected


def test_codes_read_back():
    assert parse_set_code("bt13").code == "BT13"
    assert parse_set_code("P").code == "P"
    assert parse_set_code("13") is None


def test_newest_sets_and_newer_than_pool():
    newest = newest_sets(["BT1-010", "BT26-001", "BT3-001", "EX12-001", "EX9-013", "P-001"])
    assert newest == {"BT": SetId("BT", 26), "EX": SetId("EX", 12), "P": SetId("P", None)}
    assert is_newer_than_pool("EX13-001", newest) == SetId("EX", 13)
    assert is_newer_than_pool("ST30-01", newest) == SetId("ST", 30)  # a series never held
    assert is_newer_than_pool("EX12-099", newest) is None  # the newest set itself
    assert is_newer_than_pool("BT2-001", newest) is None
    assert is_newer_than_pool("P-999", newest) is None
    assert is_newer_than_pool("Agumon", newest) is None
