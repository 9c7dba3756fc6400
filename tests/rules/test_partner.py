"""partner: a declared partner and the partner Level C Digimon (DBE, test-only cards)."""

import pytest
from fixture_cards import dbe_codes as codes


@pytest.mark.parametrize(
    ("partner", "sections", "expected"),
    [
        (None, {"main": {"ACC-001": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-023", {"main": {"ACC-023": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-001", {"main": {"ACC-023": 4}}, ["partner"]),
        ("ACC-005", {"main": {"ACC-005": 4}}, ["partner"]),
        (None, {"main": {"ACC-001": 4}}, []),
    ],
    ids=[
        "partner-c-without-partner",
        "partner-c-not-naming-partner",
        "partner-not-in-main",
        "partner-not-level-r",
        "no-partner-at-all",
    ],
)
def test_partner(partner, sections, expected):
    assert codes(partner, **sections) == expected
