"""data-legality: a DATA card's name must be in the Destiny Zone (DBE, test-only cards)."""

import pytest
from fixture_cards import dbe_codes as codes


@pytest.mark.parametrize(
    ("partner", "sections", "expected"),
    [
        (None, {"main": {"ACC-010": 1}, "destiny": {"ACC-007": 1}}, ["data-legality"]),
        (None, {"main": {"ACC-011": 1}, "destiny": {"ACC-007": 1}}, []),
        (None, {"main": {"ACC-009": 1}, "destiny": {"SF-003": 1}}, []),
    ],
    ids=["data-without-name", "data-named-in-evo-box", "data-by-alias"],
)
def test_data_legality(partner, sections, expected):
    assert codes(partner, **sections) == expected
